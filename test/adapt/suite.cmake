# SPDX-License-Identifier: Apache-2.0
# Adaptive routing (issue 10, alg/adapt.h).  Guest: the shift to software
# when the simulated engine is made much slower and the return when it
# recovers, judged by the provider's counters (outcomes, not times).  The
# benchmark itself is scripts/adapt-bench.sh; here only a smoke run of it.
add_executable(eip93-adapt-check ${CMAKE_CURRENT_LIST_DIR}/adapt_check.c
  ${CMAKE_CURRENT_LIST_DIR}/adapt_pool.c)
eip93_target_flags(eip93-adapt-check)
find_package(Threads REQUIRED)
target_link_libraries(eip93-adapt-check PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)

eip93_guest_test(adapt ${CMAKE_CURRENT_LIST_DIR}/adapt.sh
  --add ${CMAKE_CURRENT_LIST_DIR}/adaptive-engine.cnf:/opt/eip93/adaptive-engine.cnf
  --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff
  --add $<TARGET_FILE:eip93-adapt-check>:/usr/bin/eip93-adapt-check --smp 2 --timeout 300)
set_tests_properties(guest_adapt PROPERTIES LABELS "guest;adapt")

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
