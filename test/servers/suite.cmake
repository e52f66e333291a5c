# SPDX-License-Identifier: Apache-2.0
# Servers suite: Debian's nginx, haproxy, stunnel4 and curl with
# eip93 preferred through openssl.cnf, in the x86_64 guest with the simulated
# EIP93 driver.  scripts/deps.d/servers.txt installs the packages.
# Label "servers": ctest -L servers.  Each guest script prints SERVERS-ROW
# lines; test/servers/update-doc.sh turns them into docs/servers.md's table.

set(SERVERS_DIR ${CMAKE_CURRENT_LIST_DIR})
eip93_guest_programs(SERVERS nginx:/usr/sbin/nginx haproxy:/usr/sbin/haproxy
  stunnel4:/usr/bin/stunnel4 curl:/usr/bin/curl getfattr:/usr/bin/getfattr)
list(INSERT SERVERS_ADD 0 --add-dir ${SERVERS_DIR}:/opt/servers)

# servers_test(<name> <timeout seconds> [run.sh arguments...])
function(servers_test name timeout)
  eip93_guest_test(servers_${name} ${SERVERS_DIR}/${name}.sh ${SERVERS_ADD}
    --mem 1024 --timeout ${timeout} ${ARGN})
  math(EXPR ctest_timeout "${timeout} + 60")
  set_tests_properties(guest_servers_${name} PROPERTIES LABELS "guest;servers"
    TIMEOUT ${ctest_timeout})
endfunction()

if(SERVERS_MISSING)
  message(WARNING "servers suite not registered: ${SERVERS_MISSING} not found "
                  "(scripts/deps.sh installs scripts/deps.d/servers.txt)")
else()
  # eip93-counters.so (counters.c, test/CMakeLists.txt): preloaded into the
  # optimized curl of every transfer (lib.sh xfer) and into tls12's programs.
  list(APPEND SERVERS_ADD --add $<TARGET_FILE:eip93-counters>:/usr/lib/eip93-counters.so)
  # Guest time on this 2-core TCG host: nginx, haproxy and stunnel ~5-7 min
  # each, small ~1.5 min (see docs/servers.md); the bounds leave room for a
  # loaded machine.
  servers_test(nginx 900)
  servers_test(haproxy 900)
  servers_test(stunnel 900)
  servers_test(small 420)
  # The README demo's guest script (scripts/demo.sh may boot it through
  # build/test/guest-run.sh with the same --add arguments as these tests).
  servers_test(demo 300)

  # TLS 1.2 AES-CBC records (tls12.sh, tls12-lib.sh): Debian's openssl (libssl
  # 3.0) and OpenSSL 3.5's (scripts/openssl-build.sh, built here as a fixture:
  # the cache the 3.5 stage of scripts/test.sh reuses) as s_server/s_client,
  # nginx on either library, curl; each side's counters from
  # eip93-counters.so (counters.c) preloaded.  Only in a build against
  # Debian's libcrypto 3.0: the guest's system library, into whose programs
  # the provider and the preload are loaded.
  find_program(SERVERS_OPENSSL30 openssl PATHS /usr/bin NO_DEFAULT_PATH NO_CACHE)
  set(servers_ossl30_version "")
  if(SERVERS_OPENSSL30)
    execute_process(COMMAND ${SERVERS_OPENSSL30} version OUTPUT_VARIABLE servers_ossl30_version
      ERROR_QUIET)
  endif()
  set(EIP93_OPENSSL_CACHE "$ENV{HOME}/.cache/eip93" CACHE PATH
      "Where scripts/openssl-build.sh caches the OpenSSL harness builds")
  if(NOT LIBCRYPTO_VERSION MATCHES "^3\\.0\\.")
    message(STATUS "servers: tls12 not registered (libcrypto ${LIBCRYPTO_VERSION}: it runs in "
                   "the build against Debian's 3.0)")
  elseif(NOT servers_ossl30_version MATCHES "^OpenSSL 3\\.0\\.")
    message(WARNING "servers: tls12 not registered: /usr/bin/openssl is not OpenSSL 3.0 "
                    "(${servers_ossl30_version})")
  else()
    set(SERVERS_OSSL35 ${EIP93_OPENSSL_CACHE}/openssl-3.5/current)
    add_test(NAME servers_openssl35_build
      COMMAND ${PROJECT_SOURCE_DIR}/scripts/openssl-build.sh 3.5 ${EIP93_OPENSSL_CACHE})
    # make -j(nproc) inside: every core (as harness_openssl_build).
    include(ProcessorCount)
    ProcessorCount(servers_nproc)
    if(servers_nproc LESS 1)
      set(servers_nproc 1)
    endif()
    set_tests_properties(servers_openssl35_build PROPERTIES FIXTURES_SETUP servers_openssl35
      LABELS "guest;servers" TIMEOUT 1500 PROCESSORS ${servers_nproc})
    # Guest time on this 2-core TCG host: see docs/testing.md (servers).
    servers_test(tls12 1500
      --add ${SERVERS_OPENSSL30}:/opt/ossl30/openssl
      --add ${SERVERS_OSSL35}/prefix/bin/openssl:/opt/ossl35/openssl
      --add ${SERVERS_OSSL35}/prefix/lib/libssl.so.3:/opt/ossl35/lib/libssl.so.3
      --add ${SERVERS_OSSL35}/prefix/lib/libcrypto.so.3:/opt/ossl35/lib/libcrypto.so.3)
    set_tests_properties(guest_servers_tls12 PROPERTIES
      FIXTURES_REQUIRED "guest_kernel;guest_driver;servers_openssl35")
  endif()
endif()

