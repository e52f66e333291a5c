# SPDX-License-Identifier: Apache-2.0
# Host tests of adaptive routing (label "host;adapt"); the guest part is
# suite.cmake.  Included by test/CMakeLists.txt whether or not guest tests are on.
# The differential suite with the router active, on the host (the fake
# engine): adaptive routing exploring 1 in 4, so both paths carry messages and
# messages switch path between contexts and keys; outputs must stay identical.
# Twice: as measured (software wins on the host: the engine gets the
# explorations) and with the engine preferred (software gets them).
if(TARGET eip93-diff)
  foreach(cnf adaptive adaptive-engine)
    add_test(NAME adapt_diff_host_${cnf} COMMAND eip93-diff --no-kernel --require-engine
      --config ${CMAKE_CURRENT_LIST_DIR}/${cnf}.cnf)
    set_tests_properties(adapt_diff_host_${cnf} PROPERTIES LABELS "host;adapt" TIMEOUT 120
      ENVIRONMENT "OPENSSL_MODULES=${EIP93_HOOKS_MODULE_DIR};OPENSSL_CONF=${PROJECT_SOURCE_DIR}/test/data/empty.cnf;EIP93_TEST_DT_PATH=${PROJECT_SOURCE_DIR}/test/data/dt-an7581.bin;EIP93_TEST_HWCAP=0;EIP93_TEST_ENGINE=fake")
  endforeach()
endif()
