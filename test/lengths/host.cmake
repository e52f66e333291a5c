# SPDX-License-Identifier: Apache-2.0
# eip93-lengths: every AES-GCM message length 0-70,000 through eip93 (the
# hooks build, the user-space fake engine, window 16-65536 bytes) against the
# default provider of the same libcrypto; two halves, so ctest runs them at
# once.  The gate must have bound the CTR-only composition (on every build,
# small-footprint ones included: its self-test, alg/gcm/selftest.c).
add_executable(eip93-lengths ${CMAKE_CURRENT_LIST_DIR}/lengths.c)
eip93_target_flags(eip93-lengths)
target_link_libraries(eip93-lengths PRIVATE PkgConfig::LIBCRYPTO)
set(LENGTHS_CNF ${CMAKE_CURRENT_BINARY_DIR}/lengths.cnf)
file(GENERATE OUTPUT ${LENGTHS_CNF} CONTENT
"openssl_conf = conf\n[conf]\nproviders = provs\n[provs]\neip93 = eip93_sect\n\
default = default_sect\n[default_sect]\nactivate = 1\n[eip93_sect]\n\
module = $<TARGET_FILE:eip93_hooks>\nactivate = 1\nnotice = no\ncalibration-file = none\n\
min-size = 16\nmax-size = 65536\n")
foreach(half "0;35000" "35001;70000")
  list(GET half 0 lo)
  list(GET half 1 hi)
  add_test(NAME lengths_${lo}_${hi} COMMAND eip93-lengths --from ${lo} --to ${hi}
    --expect-gate "enabled: ctr(aes-eip93)")
  set_tests_properties(lengths_${lo}_${hi} PROPERTIES LABELS "host;integrity" ENVIRONMENT
    "OPENSSL_CONF=${LENGTHS_CNF};OPENSSL_MODULES=${EIP93_HOOKS_MODULE_DIR};\
EIP93_TEST_DT_PATH=${PROJECT_SOURCE_DIR}/test/data/dt-an7581.bin;EIP93_TEST_HWCAP=0;\
EIP93_TEST_ENGINE=fake")
endforeach()
