# SPDX-License-Identifier: Apache-2.0
# eip93-offload-check (test/arm64/offload_check.c: the key check and messages
# through eip93 equal to the default provider), defined once: included by
# test/arm64/suite.cmake (the arm64 guest runs the cross-built program) and
# test/host/packaging.cmake (the OpenWrt package check runs it on the host).
include_guard(GLOBAL)
add_executable(eip93-offload-check ${CMAKE_CURRENT_LIST_DIR}/offload_check.c)
eip93_target_flags(eip93-offload-check)
target_link_libraries(eip93-offload-check PRIVATE PkgConfig::LIBCRYPTO)
