# SPDX-License-Identifier: Apache-2.0
# Host test of the calibration command (label "host;calib"); the guest part
# is suite.cmake.  Included by test/CMakeLists.txt whether or not guest tests
# are on.  Not in a sanitized build: host.sh runs the `openssl` command with
# the hooks module, which an unsanitized program cannot load when sanitized.
find_program(OPENSSL_CLI openssl REQUIRED)
# Where each payload size goes (host.sh here, the guest suites in suite.cmake).
add_executable(eip93-calib-check ${CMAKE_CURRENT_LIST_DIR}/calib_check.c)
eip93_target_flags(eip93-calib-check)
target_link_libraries(eip93-calib-check PRIVATE PkgConfig::LIBCRYPTO)
# On the host, with the hooks build and the user-space fake engine: the
# calibration command end to end (table, file, the provider reading it),
# refusing to write without permission, the config keys' errors.
if(NOT EIP93_SANITIZE)
  add_test(NAME calib_host COMMAND ${CMAKE_CURRENT_LIST_DIR}/host.sh $<TARGET_FILE:eip93-doctor>
    ${OPENSSL_CLI} ${EIP93_HOOKS_MODULE_DIR} ${PROJECT_SOURCE_DIR}/test/data
    $<TARGET_FILE:eip93-calib-check>)
  set_tests_properties(calib_host PROPERTIES LABELS "host;calib" TIMEOUT 120)
endif()
