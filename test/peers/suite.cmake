# SPDX-License-Identifier: Apache-2.0
# The peers side by side in one guest run (test/peers/peers.sh):
# software, OpenSSL's afalg and devcrypto engines and eip93 over AF_ALG and
# /dev/crypto, AES-128-CBC and AES-128-CTR through `openssl speed -elapsed`,
# on the simulated EIP93 driver with its timing model set from published
# figures and cryptodev.ko in the same boot.
#   peers_openssl35   fixture: scripts/openssl-build.sh 3.5 (cached; the same
#                     build as the OpenSSL 3.5 stage's, with enable-devcryptoeng),
#                     its directory written to peers/openssl35.dir
#   guest_peers       the run: outcomes asserted (each row ran, outputs equal,
#                     engine rows reached the driver), ratios printed
# The numbers of docs/performance.md: test/peers/bench.sh (longer runs, the plot).
# Needs test/cryptodev/suite.cmake's cryptodev.ko (CDEV_KMOD, fixture
# guest_cryptodev_kmod; that suite's file sorts before this one).

set(PEERS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(EIP93_OPENSSL_CACHE "$ENV{HOME}/.cache/eip93" CACHE PATH
    "Where scripts/openssl-build.sh caches the OpenSSL harness builds")
set(PEERS_OSSL35_FILE ${CMAKE_CURRENT_BINARY_DIR}/peers/openssl35.dir)

if(NOT TEST guest_build_cryptodev)
  message(WARNING "peers: no cryptodev.ko build (the pinned cryptodev-linux source was not found): "
          "guest_peers not registered")
  return()
endif()

add_test(NAME peers_openssl35 COMMAND bash -c
  "mkdir -p \"$(dirname \"$2\")\" && \"$0\" 3.5 \"$1\" >\"$2.new\" && mv \"$2.new\" \"$2\""
  ${PROJECT_SOURCE_DIR}/scripts/openssl-build.sh ${EIP93_OPENSSL_CACHE} ${PEERS_OSSL35_FILE})
# make -j(nproc) inside when not cached (as harness_openssl_build).
include(ProcessorCount)
ProcessorCount(PEERS_NPROC)
if(PEERS_NPROC LESS 1)
  set(PEERS_NPROC 1)
endif()
set_tests_properties(peers_openssl35 PROPERTIES FIXTURES_SETUP peers_openssl35
  LABELS "guest;bench" TIMEOUT 1500 PROCESSORS ${PEERS_NPROC})

add_test(NAME guest_peers
  COMMAND ${PEERS_DIR}/run.sh ${PEERS_OSSL35_FILE} ${OPENSSL_CLI}
          ${RIG_DIR}/run.sh ${GUEST_COMMON} --work ${GUEST_WORK}/peers
          --script ${PEERS_DIR}/peers.sh --module ${CDEV_KMOD}/cryptodev.ko
          --timeout 840)
set_tests_properties(guest_peers PROPERTIES LABELS "guest;bench" TIMEOUT 900
  FIXTURES_REQUIRED "guest_kernel;guest_driver;guest_cryptodev_kmod;peers_openssl35")
