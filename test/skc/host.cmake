# SPDX-License-Identifier: Apache-2.0
# AES-CTR and AES-CBC on the host: eip93-skc-diff against the default
# provider through the fake engine (engine/fake.c, fake_skc.c), with and
# without faults and the driver's modelled bugs.
add_executable(eip93-skc-diff ${CMAKE_CURRENT_LIST_DIR}/skc_diff.c ${CMAKE_CURRENT_LIST_DIR}/named.c)
eip93_target_flags(eip93-skc-diff)
target_link_libraries(eip93-skc-diff PRIVATE PkgConfig::LIBCRYPTO)

set(_skc_env "OPENSSL_MODULES=${EIP93_HOOKS_MODULE_DIR};OPENSSL_CONF=${PROJECT_SOURCE_DIR}/test/data/empty.cnf;EIP93_TEST_DT_PATH=${PROJECT_SOURCE_DIR}/test/data/dt-an7581.bin;EIP93_TEST_HWCAP=0;EIP93_TEST_ENGINE=fake")
# eip93_skc_test(<name> <args> [ENV...]): a host test of eip93-skc-diff.
function(eip93_skc_test name args)
  add_test(NAME ${name} COMMAND eip93-skc-diff ${args})
  set_tests_properties(${name} PROPERTIES LABELS "host;skc" ENVIRONMENT "${_skc_env};${ARGN}")
endfunction()

eip93_skc_test(skc_diff "--cases;3000;--min-engine;500")
# Wrong engine results of every kind the fake injects: caught (counted), the engine off after 8,
# every answer still the default provider's.
foreach(kind keystream skip page errno)
  if(kind STREQUAL "keystream")
    set(_plan "site=data,kind=keystream,nth=5,every=1,block=-2")
  elseif(kind STREQUAL "skip")
    set(_plan "site=data,kind=skip,nth=3,every=1,block=7")
  elseif(kind STREQUAL "page")
    set(_plan "site=data,kind=page,nth=2,every=1,at=-1")
  else()
    set(_plan "site=data,kind=errno,nth=2,every=1,err=5")
  endif()
  if(kind STREQUAL "errno")
    eip93_skc_test(skc_diff_fault_${kind} "--cases;1500" "EIP93_TEST_FAKE=${_plan}")
  else()
    eip93_skc_test(skc_diff_fault_${kind} "--cases;1500;--min-faults;8;--max-faults;8"
      "EIP93_TEST_FAKE=${_plan}")
  endif()
endforeach()
# The driver's two modelled bugs (engine/fake_skc.c): worked around, no wrong result at all;
# with a workaround turned off, the same run counts faults (the test would catch its absence).
eip93_skc_test(skc_bugs_worked_around "--cases;3000;--min-engine;500;--max-faults;0"
  "EIP93_TEST_FAKE_BUGS=direction,ctr32")
eip93_skc_test(skc_bug_direction_caught_without_workaround "--cases;3000;--min-faults;1;--max-faults;8"
  "EIP93_TEST_FAKE_BUGS=direction" "EIP93_TEST_QUIRKS=no-dir-split")
eip93_skc_test(skc_bug_ctr32_caught_without_workaround "--cases;3000;--min-faults;1;--max-faults;8"
  "EIP93_TEST_FAKE_BUGS=ctr32" "EIP93_TEST_QUIRKS=no-ctr-split")
# TLS 1.2 CBC records as libssl drives them (tls-version, tls-mac-size 0/20/32/48: with and
# without encrypt-then-MAC), both directions, valid and bad padding; tls-mac compared.
eip93_skc_test(skc_diff_tls12 "--cases;800;--tls-only;1;--min-engine;1500")
eip93_skc_test(skc_diff_tls12_fault "--cases;800;--tls-only;1;--min-faults;8;--max-faults;8"
  "EIP93_TEST_FAKE=site=data,kind=keystream,nth=40,every=1,block=-1")

# Named scripts (eip93-skc-diff --script NAME): every AES-CTR or AES-CBC file in
# test/fuzz/regress has one of its name in named.c's table, registered here as
# diff_script_NAME (the AES-GCM ones are test/diff's: each CMake file takes the
# folder's names its own named.c lists; scripts/check-regress.sh checks that every
# file is in one of them).
set(_skc_regress_dir ${PROJECT_SOURCE_DIR}/test/fuzz/regress)
file(GLOB _skc_regress CONFIGURE_DEPENDS RELATIVE ${_skc_regress_dir} ${_skc_regress_dir}/*)
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/named.c _skc_named REGEX "^\t\\{ \"[a-z0-9-]+\", n_")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/named.c)
foreach(s ${_skc_regress})
  if(_skc_named MATCHES "\\{ \"${s}\", n_")
    add_test(NAME diff_script_${s} COMMAND eip93-skc-diff --script ${s})
    set_tests_properties(diff_script_${s} PROPERTIES LABELS "host;regress" ENVIRONMENT "${_skc_env}")
  endif()
endforeach()
