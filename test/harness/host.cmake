# SPDX-License-Identifier: Apache-2.0
# Host tests of the harness (label "host;harness"):
#   cavp_self_check   eip93-cavp against the default provider over two of
#                     NIST's AES-GCM files and every AES-CBC and AES-CTR file,
#                     so that the guest run (guest_harness_cavp, suite.cmake)
#                     tests eip93 and not the driver
#   cavp_skc_fake     the AES-CBC and AES-CTR files through eip93 (hooks
#                     build) and the user-space fake of the engine, with the
#                     real driver's two bugs modelled and the engine window
#                     opened to 16 bytes: every vector's result right, and
#                     eip93 must count engine messages
#   skc_vectors_fake  (skc-vectors-host.sh) the large AES-CTR and AES-CBC
#                     vectors of test/data/vectors through eip93-stanza the
#                     same way, at the default window: every eligible
#                     direction an engine message, no other one
# Included by test/CMakeLists.txt whether or not guest tests are on.
include(${CMAKE_CURRENT_LIST_DIR}/program.cmake)   # eip93-cavp, eip93-stanza
set(EIP93_CAVP_DIR "/usr/lib/python3/dist-packages/cryptography_vectors/ciphers/AES/GCM"
    CACHE PATH "NIST CAVP AES-GCM .rsp files (Debian: python3-cryptography-vectors)")
set(EIP93_CAVP_CBC_DIR "/usr/lib/python3/dist-packages/cryptography_vectors/ciphers/AES/CBC"
    CACHE PATH "NIST CAVP AES-CBC .rsp files, KAT and MMT (Debian: python3-cryptography-vectors)")
set(EIP93_CAVP_CTR_DIR "/usr/lib/python3/dist-packages/cryptography_vectors/ciphers/AES/CTR"
    CACHE PATH "RFC 3686 AES-CTR vectors in CAVP form (Debian: python3-cryptography-vectors)")
file(GLOB EIP93_CAVP_CBC_FILES ${EIP93_CAVP_CBC_DIR}/CBC*.rsp)
file(GLOB EIP93_CAVP_CTR_FILES ${EIP93_CAVP_CTR_DIR}/aes-*-ctr.txt)
set(EIP93_CAVP_SKC_FILES ${EIP93_CAVP_CBC_FILES} ${EIP93_CAVP_CTR_FILES})

# The engine path on this host: the hooks build of eip93.so, the fake engine
# with the driver's direction and 32-bit counter bugs (engine/fake_skc.c).
set(HARNESS_FAKE_ENV
  "EIP93_TEST_DT_PATH=${PROJECT_SOURCE_DIR}/test/data/dt-an7581.bin" "EIP93_TEST_HWCAP=0"
  "EIP93_TEST_ENGINE=fake" "EIP93_TEST_FAKE_BUGS=direction,ctr32")
# harness_fake_cnf(<var> <name> [eip93 lines...]): an openssl.cnf with the
# default provider and the hooks build, eip93 preferred (?provider=eip93).
function(harness_fake_cnf var name)
  set(cnf ${CMAKE_CURRENT_BINARY_DIR}/${name}.cnf)
  string(REPLACE ";" "\n" extra "${ARGN}")
  file(GENERATE OUTPUT ${cnf} CONTENT
"openssl_conf = conf\n[conf]\nproviders = provs\nalg_section = evp\n[evp]\n\
default_properties = ?provider=eip93\n[provs]\neip93 = eip93_sect\ndefault = default_sect\n\
[default_sect]\nactivate = 1\n[eip93_sect]\nmodule = $<TARGET_FILE:eip93_hooks>\nactivate = 1\n\
notice = no\ncalibration-file = none\n${extra}\n")
  set(${var} ${cnf} PARENT_SCOPE)
endfunction()

if(EXISTS ${EIP93_CAVP_DIR}/gcmEncryptExtIV128.rsp AND EIP93_CAVP_CBC_FILES AND EIP93_CAVP_CTR_FILES)
  add_test(NAME cavp_self_check COMMAND eip93-cavp --props provider=default
           --expect-provider default ${EIP93_CAVP_DIR}/gcmEncryptExtIV128.rsp
           ${EIP93_CAVP_DIR}/gcmDecrypt128.rsp ${EIP93_CAVP_SKC_FILES})
  set_tests_properties(cavp_self_check PROPERTIES LABELS "host;harness"
    ENVIRONMENT "OPENSSL_CONF=${PROJECT_SOURCE_DIR}/test/data/empty.cnf")
  harness_fake_cnf(HARNESS_CNF_W16 harness-window16 "min-size = 16")
  add_test(NAME cavp_skc_fake COMMAND eip93-cavp --min-engine 1 ${EIP93_CAVP_SKC_FILES})
  set_tests_properties(cavp_skc_fake PROPERTIES LABELS "host;harness"
    ENVIRONMENT "${HARNESS_FAKE_ENV};OPENSSL_CONF=${HARNESS_CNF_W16}")
else()
  message(WARNING "harness: ${EIP93_CAVP_DIR}, ${EIP93_CAVP_CBC_DIR} or ${EIP93_CAVP_CTR_DIR} "
          "lacks the CAVP files (apt-get install python3-cryptography-vectors): "
          "cavp_self_check and cavp_skc_fake not registered")
endif()

find_program(HARNESS_XZ xz)
if(HARNESS_XZ)
  harness_fake_cnf(HARNESS_CNF harness-fake)
  add_test(NAME skc_vectors_fake COMMAND ${CMAKE_CURRENT_LIST_DIR}/skc-vectors-host.sh
           $<TARGET_FILE:eip93-stanza> ${PROJECT_SOURCE_DIR}/test/data/vectors)
  set_tests_properties(skc_vectors_fake PROPERTIES LABELS "host;harness"
    ENVIRONMENT "${HARNESS_FAKE_ENV};OPENSSL_CONF=${HARNESS_CNF}")
else()
  message(WARNING "harness: no xz (apt-get install xz-utils): skc_vectors_fake not registered")
endif()
