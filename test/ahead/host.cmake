# SPDX-License-Identifier: Apache-2.0
# Keystream ahead (docs/design.md) on the host.
# eip93-fake-ahead-check: the fake engine's keystream ahead at its interface
# (engine/fake_ahead.c, linked directly): asynchronous, one outstanding, the
# keystream right, returned once, a forked child's -ENOENT and zero buffer,
# the plan at site=ahead and by direction, eager mode, key close.
add_executable(eip93-fake-ahead-check ${CMAKE_CURRENT_LIST_DIR}/fake_check.c
  ${PROJECT_SOURCE_DIR}/engine/fake.c ${PROJECT_SOURCE_DIR}/engine/fake_skc.c
  ${PROJECT_SOURCE_DIR}/engine/fake_ahead.c ${PROJECT_SOURCE_DIR}/engine/afalg_words.c
  ${PROJECT_SOURCE_DIR}/detect/kprobe.c)
eip93_target_flags(eip93-fake-ahead-check)
target_compile_definitions(eip93-fake-ahead-check PRIVATE EIP93_TEST_HOOKS=1)
target_include_directories(eip93-fake-ahead-check PRIVATE ${PROJECT_SOURCE_DIR}
  ${PROJECT_SOURCE_DIR}/engine)
target_link_libraries(eip93-fake-ahead-check PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)
add_test(NAME ahead_fake COMMAND eip93-fake-ahead-check)
set_tests_properties(ahead_fake PROPERTIES LABELS "host;unit")

# eip93-ahead-check: the overlapped path through the real provider (the
# hooks build, the fake engine), every output against the default provider
# (ahead_check.c says what each stream asserts).  The configuration: the
# CTR-only composition, a fixed window of 256-65536 bytes (an 8-byte record
# goes to software by size), keystream-ahead on or off.
add_executable(eip93-ahead-check ${CMAKE_CURRENT_LIST_DIR}/ahead_check.c
  ${CMAKE_CURRENT_LIST_DIR}/ahead_pair.c)
eip93_target_flags(eip93-ahead-check)
target_link_libraries(eip93-ahead-check PRIVATE PkgConfig::LIBCRYPTO)
foreach(onoff on off)
  file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/ahead-${onoff}.cnf CONTENT
"openssl_conf = conf\n[conf]\nproviders = provs\n[provs]\neip93 = eip93_sect\n\
default = default_sect\n[default_sect]\nactivate = 1\n[eip93_sect]\n\
module = $<TARGET_FILE:eip93_hooks>\nactivate = 1\nnotice = no\ncalibration-file = none\n\
routing = fixed\nmin-size = 256\nmax-size = 65536\nkeystream-ahead = ${onoff}\n")
endforeach()
set(AHEAD_ENV "OPENSSL_MODULES=${EIP93_HOOKS_MODULE_DIR}"
  "EIP93_TEST_DT_PATH=${PROJECT_SOURCE_DIR}/test/data/dt-an7581.bin" "EIP93_TEST_HWCAP=0"
  "EIP93_TEST_ENGINE=fake")
# ahead_add(<name> <on|off> <env (;-list, may be empty)> <args...>)
function(ahead_add name onoff env)
  add_test(NAME ${name} COMMAND eip93-ahead-check ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "host;integrity" TIMEOUT 300
    ENVIRONMENT "${AHEAD_ENV};OPENSSL_CONF=${CMAKE_CURRENT_BINARY_DIR}/ahead-${onoff}.cnf;${env}")
endfunction()
# (a)-(g), the fake computing at the wait; and at the start (eager).
ahead_add(ahead_host on "" --ahead on)
ahead_add(ahead_host_eager on "EIP93_TEST_FAKE_AHEAD=eager" --ahead on)
# keystream-ahead = off: never used, never dropped.
ahead_add(ahead_host_off off "" --ahead off)
# Fault plans on ahead requests only (site=ahead): a wrong first block, the
# last block skipped (it stays zero: never released as plaintext), the wait
# failing (ETIMEDOUT, a lost request); and on every AES-CTR request from the
# third (ahead ones among them) a wrong last byte.  The outputs stay the
# default provider's; the provider counts what was injected.
ahead_add(ahead_host_fault_keystream on
  "EIP93_TEST_FAKE=site=ahead,kind=keystream,nth=2,every=1,block=0,count=1"
  --ahead any --fault faults --only abcdefgh)
ahead_add(ahead_host_fault_skip on "EIP93_TEST_FAKE=site=ahead,kind=skip,nth=1,every=1,block=-1,count=1"
  --ahead any --fault faults --only abcdefgh)
ahead_add(ahead_host_fault_skip_eager on
  "EIP93_TEST_FAKE=site=ahead,kind=skip,nth=3,every=1,block=-1,count=1;EIP93_TEST_FAKE_AHEAD=eager"
  --ahead any --fault faults --only abcdh)
# The same skip with the integrity check off (EIP93_TEST_VERIFY=off): the ahead
# path's own refusal of an unwritten block is all that stands between it and the
# caller, in place (h, TLS 1.2 records) too.
ahead_add(ahead_host_fault_skip_noverify on
  "EIP93_TEST_FAKE=site=ahead,kind=skip,nth=1,every=1,block=3,count=1;EIP93_TEST_VERIFY=off"
  --ahead any --fault faults --only abcdefgh)
ahead_add(ahead_host_fault_errno on "EIP93_TEST_FAKE=site=ahead,kind=errno,err=110,nth=2,every=1"
  --ahead any --fault errors --only abcdefgh)
ahead_add(ahead_host_fault_tail on "EIP93_TEST_FAKE=site=data,kind=tail,nth=3,every=1"
  --ahead any --fault faults --only abcdh)
