# SPDX-License-Identifier: Apache-2.0
# Adaptive routing (alg/adapt.h).  Guest: the shift to software
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

