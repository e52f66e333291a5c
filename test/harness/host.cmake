# SPDX-License-Identifier: Apache-2.0
# Host test of the CAVP driver (label "host;harness"): eip93-cavp against the
# default provider over two of NIST's AES-GCM files, so that the guest run
# (guest_harness_cavp, suite.cmake) tests eip93 and not the driver.
# Included by test/CMakeLists.txt whether or not guest tests are on.
include(${CMAKE_CURRENT_LIST_DIR}/program.cmake)   # eip93-cavp
set(EIP93_CAVP_DIR "/usr/lib/python3/dist-packages/cryptography_vectors/ciphers/AES/GCM"
    CACHE PATH "NIST CAVP AES-GCM .rsp files (Debian: python3-cryptography-vectors)")
if(EXISTS ${EIP93_CAVP_DIR}/gcmEncryptExtIV128.rsp)
  add_test(NAME cavp_self_check COMMAND eip93-cavp --props provider=default
           --expect-provider default ${EIP93_CAVP_DIR}/gcmEncryptExtIV128.rsp
           ${EIP93_CAVP_DIR}/gcmDecrypt128.rsp)
  set_tests_properties(cavp_self_check PROPERTIES LABELS "host;harness"
    ENVIRONMENT "OPENSSL_CONF=${PROJECT_SOURCE_DIR}/test/data/empty.cnf")
else()
  message(WARNING "harness: ${EIP93_CAVP_DIR} has no CAVP GCM files "
          "(apt-get install python3-cryptography-vectors): cavp_self_check not registered")
endif()
