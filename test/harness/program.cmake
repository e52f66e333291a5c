# SPDX-License-Identifier: Apache-2.0
# The harness programs that need only libcrypto, defined once:
#   eip93-stanza  (stanza.c) OpenSSL evp_test stanzas run through eip93: the
#                 guest suite and the OpenWrt package check's known answers
#                 (test/host/packaging.cmake)
#   eip93-cavp    (cavp.c, cavp_skc.c) NIST CAVP AES-GCM and AES-CBC files and
#                 RFC 3686's AES-CTR vectors through a chosen provider: the
#                 guest suite and the host tests of host.cmake
include_guard(GLOBAL)
add_executable(eip93-stanza ${CMAKE_CURRENT_LIST_DIR}/stanza.c)
eip93_target_flags(eip93-stanza)
target_link_libraries(eip93-stanza PRIVATE PkgConfig::LIBCRYPTO)
add_executable(eip93-cavp ${CMAKE_CURRENT_LIST_DIR}/cavp.c ${CMAKE_CURRENT_LIST_DIR}/cavp_skc.c)
eip93_target_flags(eip93-cavp)
target_link_libraries(eip93-cavp PRIVATE PkgConfig::LIBCRYPTO)
