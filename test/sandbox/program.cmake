# SPDX-License-Identifier: Apache-2.0
# eip93-seccomp-check, defined once for both guests: included by
# test/sandbox/suite.cmake (x86_64 guest, hooks build) and by
# test/arm64/suite.cmake (whose cross build includes only that suite; the
# arm64 guest runs the cross-built program on the release build).
include_guard(GLOBAL)
add_executable(eip93-seccomp-check ${CMAKE_CURRENT_LIST_DIR}/seccomp_check.c)
eip93_target_flags(eip93-seccomp-check)
target_link_libraries(eip93-seccomp-check PRIVATE PkgConfig::LIBCRYPTO)
