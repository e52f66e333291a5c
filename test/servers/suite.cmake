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
endif()

