# SPDX-License-Identifier: Apache-2.0
# Host test of the servers documentation (label "host;servers"); the guests
# are suite.cmake.  Included by test/CMakeLists.txt whether or not guest
# tests are on.
# docs/servers.md carries the configuration files verbatim (update-doc.sh).
add_test(NAME servers_doc_conf COMMAND ${CMAKE_CURRENT_LIST_DIR}/update-doc.sh --check)
set_tests_properties(servers_doc_conf PROPERTIES LABELS "host;servers")
