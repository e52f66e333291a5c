// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench, section 2: the delegated (software) path vs the default
 * provider alone, TLS 1.3 shape, 16 B / 256 B / 1 KiB.
 */
#include "bench.h"

#include <stdio.h>
#include <string.h>

/* ---- section 2: delegated path vs default provider ----------------------- */

void section_delegated(void)
{
	static const size_t sizes[] = { 16, 256, 1024 };
	char sz[32];

	printf("\n2. Delegated (software) path vs the default provider alone (TLS 1.3 shape)\n");
	printf("   ratio = eip93 throughput / default throughput, as in 1 (a timing sample "
	       "covers\n   several messages here)\n\n");
	printf("   %-6s %-3s %7s | %9s %9s | %9s %9s | %6s %13s %6s %7s | %s\n", "shape", "dir",
	       "size", "dflt MB/s", "eip93MB/s", "dflt us", "eip93 us", "ratio", "(min..max)",
	       "trim80", "target", "software");
	for (int enc = 1; enc >= 0; enc--)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			static unsigned char ref[1024 + TAGLEN];
			size_t len = sizes[i];
			struct evp13 a, b;
			struct contender c[2];
			struct result r;
			uint64_t em0, sm0, em1, sm1;
			int ok;

			if (reference13(len, base_nonce, ref) != 0) {
				fail("reference record");
				continue;
			}
			if (evp13_open(&a, B.c_eip93, enc, len, base_nonce, tls13_aad, ref) != 0)
				continue;
			if (evp13_open(&b, B.c_dflt, enc, len, base_nonce, tls13_aad, ref) != 0) {
				evp13_close(&a);
				continue;
			}
			memset(c, 0, sizeof(c));
			c[0].prep = c[1].prep = evp13_prep;
			c[0].op = c[1].op = evp13_op;
			c[0].st = &a;
			c[1].st = &b;
			em0 = prov_counter("eip93-engine-messages");
			sm0 = prov_counter("eip93-software-messages");
			if (check13(&a, ref) != 0) {
				fail("delegated %zu: the answer differs from the default provider",
				     len);
				ok = 0;
			} else {
				ok = measure(c, 2, B.rounds, B.batch_s, &r) == 0;
			}
			em1 = prov_counter("eip93-engine-messages");
			sm1 = prov_counter("eip93-software-messages");
			evp13_close(&a);
			evp13_close(&b);
			if (!ok) {
				printf("   TLS1.3 %-3s %7s | (failed, see stderr)\n",
				       enc ? "enc" : "dec", size_str(len, sz, sizeof(sz)));
				continue;
			}
			ok = em1 == em0 && sm1 - sm0 == (uint64_t)r.msgs0 + 1;
			if (!ok)
				fail("delegated %zu: %llu engine, %llu software messages", len,
				     (unsigned long long)(em1 - em0),
				     (unsigned long long)(sm1 - sm0));
			printf("   %-6s %-3s %7s | %9.1f %9.1f | %9.2f %9.2f | %6.3f (%.3f..%.3f) "
			       "%6.3f %7s | %s\n",
			       "TLS1.3", enc ? "enc" : "dec", size_str(len, sz, sizeof(sz)),
			       mbps(len, r.us[1]), mbps(len, r.us[0]), r.us[1], r.us[0], r.ratio,
			       r.rmin, r.rmax, r.tratio,
			       r.ratio >= DELEGATE_TARGET ? ">=0.98" : "<0.98 !",
			       ok ? "100%" : "NO");
			fflush(stdout);
		}
}
