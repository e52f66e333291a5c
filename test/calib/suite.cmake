# SPDX-License-Identifier: Apache-2.0
# Calibration (docs/contract.md "Switching on"), in x86_64 guests with the
# simulated engine: at full speed the written window is what the printed
# table implies and the provider follows it, stale and corrupt files;
# slowed by the timing model the calibration writes "off" and the provider
# stays in software; the composition order with a test-only ghash-neon.
# eip93-calib-check is host.cmake's (included before this file).

set(CALIB_FILES
  --add $<TARGET_FILE:eip93-doctor>:/usr/bin/eip93-doctor
  --add $<TARGET_FILE:eip93-calib-check>:/usr/bin/eip93-calib-check
  --add ${CMAKE_CURRENT_LIST_DIR}/lib.sh:/opt/eip93/calib-lib.sh
  --add ${CMAKE_CURRENT_LIST_DIR}/window.awk:/opt/eip93/window.awk
  --module ${GUEST_KMOD}/eip93_ghash_neon.ko)
eip93_guest_test(calib_fast ${CMAKE_CURRENT_LIST_DIR}/fast.sh ${CALIB_FILES} --timeout 300)
eip93_guest_test(calib_slow ${CMAKE_CURRENT_LIST_DIR}/slow.sh ${CALIB_FILES} --timeout 300)
eip93_guest_test(calib_order ${CMAKE_CURRENT_LIST_DIR}/order.sh ${CALIB_FILES} --timeout 300)
set_tests_properties(guest_calib_fast guest_calib_slow guest_calib_order PROPERTIES
  LABELS "guest;calib")

# The arm64 guest (test/arm64/suite.cmake, included before this file): the
# release build's calibration on the AN7581 device tree and the simulated driver.
if(COMMAND eip93_arm64_test AND NOT CMAKE_CROSSCOMPILING)
  eip93_arm64_test(calib_an7581 airoha,an7581 ${CMAKE_CURRENT_LIST_DIR}/arm64.sh
    --add ${CMAKE_CURRENT_LIST_DIR}/window.awk:/opt/eip93/window.awk --timeout 360)
  set_tests_properties(arm64_calib_an7581 PROPERTIES LABELS "guest;arm64;calib")
endif()
