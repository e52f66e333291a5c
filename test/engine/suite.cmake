# SPDX-License-Identifier: Apache-2.0
# The engine path end to end, in one guest:
# openssl speed moves the driver's counter, key checks against a corrupting
# driver, every AF_ALG fault site (first call and every call; eip93-diff
# must still pass), descriptors over 10^4 key lifetimes / fork / exec /
# threads, socket timeouts and a stalled driver ("measure:" lines), and the
# engine disabled by repeated errors.  Script: test/guest/engine.sh.
set(ENGINE_CHECK_DIR ${CMAKE_CURRENT_LIST_DIR})
add_executable(eip93-engine-check ${ENGINE_CHECK_DIR}/engine_check.c ${ENGINE_CHECK_DIR}/report.c
  ${ENGINE_CHECK_DIR}/driver.c ${ENGINE_CHECK_DIR}/provider.c ${ENGINE_CHECK_DIR}/messages.c
  ${ENGINE_CHECK_DIR}/fds.c ${ENGINE_CHECK_DIR}/faults.c ${ENGINE_CHECK_DIR}/hygiene.c
  ${ENGINE_CHECK_DIR}/timeout.c ${ENGINE_CHECK_DIR}/stall.c ${ENGINE_CHECK_DIR}/ahead.c)
eip93_target_flags(eip93-engine-check)
target_link_libraries(eip93-engine-check PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)
eip93_guest_test(engine ${GUEST_DIR}/engine.sh
  --add $<TARGET_FILE:eip93-engine-check>:/usr/bin/eip93-engine-check
  --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff --timeout 600)
# run.sh's own bound (600 s) must end the guest before CTest gives up.
set_tests_properties(guest_engine PROPERTIES TIMEOUT 660)
