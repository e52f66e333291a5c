# SPDX-License-Identifier: Apache-2.0
# The instruction count in the x86_64 guest, on the AF_ALG path (the
# simulated driver): eip93-icount under callgrind, the engine cases, with
# the raw loop on the AF_ALG backend itself (the same syscalls, no
# provider).  Callgrind counts user space only, so this prints what the
# provider adds in user space over the backend alone (the "own" column) and
# checks the outputs; the budget is the host's (test/icount/icount.cmake).
set(ICOUNT_VG /usr/libexec/valgrind)
eip93_guest_test(icount ${CMAKE_CURRENT_LIST_DIR}/guest.sh
  --add $<TARGET_FILE:eip93-icount>:/usr/bin/eip93-icount
  --add ${CMAKE_CURRENT_LIST_DIR}/table.awk:/opt/eip93/icount/table.awk
  --add /usr/bin/valgrind.bin:/usr/bin/valgrind.bin
  --add ${ICOUNT_VG}/callgrind-amd64-linux:${ICOUNT_VG}/callgrind-amd64-linux
  --add ${ICOUNT_VG}/vgpreload_core-amd64-linux.so:${ICOUNT_VG}/vgpreload_core-amd64-linux.so
  --add ${ICOUNT_VG}/default.supp:${ICOUNT_VG}/default.supp --mem 1024 --timeout 600)
set_tests_properties(guest_icount PROPERTIES LABELS "guest;icount" TIMEOUT 660)
