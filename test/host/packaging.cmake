# SPDX-License-Identifier: Apache-2.0
# Host tests of what is shipped (label "host" plus their own): the Debian and
# OpenWrt packages built from this tree and checked on the build machine
# (packaging/*/check.sh), and eip93-doctor's report on a machine without the
# engine.  Registered whether or not the guest tests are
# (EIP93_GUEST_TESTS=OFF), never in a cross build.  The arm64 packages
# (packaging_debian_arm64, arm64_deb) need the arm64 cross build and stay in
# test/arm64/suite.cmake.
# Not in a sanitized build: both package checks run the `openssl` command
# with the built module, and an unsanitized program cannot load a sanitized
# module.
if(NOT EIP93_SANITIZE)
  include(${PROJECT_SOURCE_DIR}/test/arm64/program.cmake)    # eip93-offload-check
  include(${PROJECT_SOURCE_DIR}/test/harness/program.cmake)  # eip93-stanza
  find_program(OPENSSL_CLI openssl REQUIRED)
  # The Debian packages: control fields, file list, install / upgrade /
  # remove / purge by the real dpkg in a scratch root, then `openssl list
  # -providers` and the installed doctor.  The release module only (the
  # package is never built from a test-hooks build), and only a build against
  # a Debian libcrypto: the package installs into its multiarch modules
  # directory, so a build against another OpenSSL (the 3.5 stage's private
  # prefix) has no Debian package to make.
  if(NOT EIP93_TEST_HOOKS AND EIP93_MODULESDIR MATCHES "^/usr/lib/[a-z0-9_]+-linux-gnu[a-z0-9]*/ossl-modules$")
    add_test(NAME packaging_debian COMMAND ${PROJECT_SOURCE_DIR}/packaging/debian/check.sh
      ${PROJECT_BINARY_DIR} ${OPENSSL_CLI} native)
    set_tests_properties(packaging_debian PROPERTIES LABELS "host;packaging" TIMEOUT 300)
  endif()
  # The OpenWrt package (both targets) against OpenWrt's own files: the
  # pinned tree (never part of this repository: ../shared/third_party beside
  # the checkout, or the workplace's copy; EIP93_THIRD_PARTY) gives
  # openssl-module.mk, the openssl init script, rc.common, functions.sh,
  # uci.sh and the uci sources, built once into EIP93_OPENWRT_CACHE; they
  # run in scratch roots.  Without the tree the test fails, saying so.  The
  # known answers and the engine path need the test-hooks module,
  # eip93-stanza and eip93-offload-check.
  if(NOT EIP93_THIRD_PARTY)
    foreach(cand "${PROJECT_SOURCE_DIR}/../shared/third_party" "/work/shared/third_party")
      if(EXISTS "${cand}/openwrt/include/openssl-module.mk")
        get_filename_component(cand "${cand}" ABSOLUTE)
        set(EIP93_THIRD_PARTY "${cand}" CACHE PATH
            "The pinned third-party sources (OpenWrt's files, uci, libubox, cryptodev-linux)")
        break()
      endif()
    endforeach()
  endif()
  set(EIP93_OPENWRT_CACHE "$ENV{HOME}/.cache/eip93/openwrt-uci" CACHE PATH
      "Where packaging_openwrt keeps the uci command it builds from the pinned sources")
  add_test(NAME packaging_openwrt COMMAND ${CMAKE_COMMAND} -E env
    EIP93_THIRD_PARTY=${EIP93_THIRD_PARTY} EIP93_OPENWRT_CACHE=${EIP93_OPENWRT_CACHE}
    ${PROJECT_SOURCE_DIR}/packaging/openwrt/test/check.sh
    $<TARGET_FILE:eip93> $<TARGET_FILE:eip93-doctor> ${OPENSSL_CLI} ${PROJECT_VERSION}
    $<TARGET_FILE:eip93_hooks> $<TARGET_FILE:eip93-stanza> $<TARGET_FILE:eip93-offload-check>)
  set_tests_properties(packaging_openwrt PROPERTIES LABELS "host;packaging" TIMEOUT 300)
endif()

# The doctor on the build machine (no device tree, no AF_ALG): every
# section, the advice, the verdict, exit status 1; EIP93_PROVIDER=off;
# --help and a bad argument; its libcrypto's build flags against those the
# openssl command of the same libcrypto prints (run without a configuration).
find_program(OPENSSL_CLI openssl REQUIRED)
add_test(NAME doctor_host COMMAND ${CMAKE_COMMAND} -E env
  OPENSSL_MODULES=${PROJECT_BINARY_DIR} OPENSSL_CONF=${PROJECT_SOURCE_DIR}/openssl.cnf.example
  ${CMAKE_CURRENT_LIST_DIR}/doctor-host.sh $<TARGET_FILE:eip93-doctor> ${OPENSSL_CLI})
set_tests_properties(doctor_host PROPERTIES LABELS "host;doctor" TIMEOUT 60)
