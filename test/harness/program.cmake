# SPDX-License-Identifier: Apache-2.0
# eip93-stanza (test/harness/stanza.c: OpenSSL evp_test stanzas run through
# eip93), defined once: included by test/harness/suite.cmake (guest) and
# test/host/packaging.cmake (the OpenWrt package check's known answers).
include_guard(GLOBAL)
add_executable(eip93-stanza ${CMAKE_CURRENT_LIST_DIR}/stanza.c)
eip93_target_flags(eip93-stanza)
target_link_libraries(eip93-stanza PRIVATE PkgConfig::LIBCRYPTO)
