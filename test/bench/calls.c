// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench, section 4: the time of each EVP call of a TLS 1.3 record
 * (diagnostics): engine real vs hot, delegated vs the default provider.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- per EVP call (diagnostics) ------------------------------------------ */

struct call_case {
	const char *title;
	int engine; /* 1: real vs hot eip93; 0: default vs eip93 */
	int enc;
	size_t len;
};

/*
 * Median time of each call per message, for two contexts alternating message
 * by message (@out[j][PH_N]: the median total).
 */
static int call_case_run(const struct call_case *cc, double out[2][PH_N + 1])
{
	static unsigned char ref[MAX_PAYLOAD + TAGLEN];
	double v[2][PH_N + 1][MAX_ROUNDS], *col = NULL;
	int rounds = B.rounds < BD_ROUNDS ? B.rounds : BD_ROUNDS, rc = -1;
	struct phases ph[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	struct evp13 e[2];
	long n = B.fixed_iters;
	uint64_t sm0;

	if (reference13(cc->len, base_nonce, ref) != 0)
		return -1;
	if (evp13_open(&e[0], cc->engine ? B.c_eip93 : B.c_dflt, cc->enc, cc->len, base_nonce,
		       tls13_aad, ref) != 0)
		return -1;
	if (evp13_open(&e[1], cc->engine ? B.c_eip93_nv : B.c_eip93, cc->enc, cc->len, base_nonce,
		       tls13_aad, ref) != 0) {
		evp13_close(&e[0]);
		return -1;
	}
	/* Warm up with the kernel answering: the first message opens and checks the key. */
	sm0 = prov_counter("eip93-software-messages");
	if (n <= 0) {
		double t0 = now_s(), dt;

		if (evp13_loop(&e[0], 3) != 0 || evp13_loop(&e[1], 3) != 0)
			goto out;
		dt = (now_s() - t0) / 6;
		n = dt > 0 ? (long)(B.batch_s * 0.3 / dt) : 3;
		if (n < 3)
			n = 3;
	} else if (evp13_loop(&e[0], 2) != 0 || evp13_loop(&e[1], 2) != 0) {
		goto out;
	}
	col = calloc((size_t)n, sizeof(double));
	for (int j = 0; j < 2; j++) {
		ph[j].v = calloc((size_t)n, sizeof(*ph[j].v));
		ph[j].cap = n;
	}
	if (col == NULL || ph[0].v == NULL || ph[1].v == NULL)
		goto out;
	sys_timing = 1;
	for (int r = 0; r < rounds; r++) {
		ph[0].n = ph[1].n = 0;
		/* Delegated: alternate message by message; engine: real, then hot, back to back. */
		for (long m = 0; m < 2 * n; m++) {
			int j = cc->engine ? (int)(m / n) : (int)((r + m / 2 + m) % 2);

			e[j].ph = &ph[j];
			sys_fake = cc->engine && j == 1;
			rc = evp13_loop(&e[j], 1);
			sys_fake = 0;
			e[j].ph = NULL;
			if (rc != 0)
				goto out_timing;
		}
		rc = -1;
		for (int j = 0; j < 2; j++) {
			if (ph[j].n != n)
				goto out_timing;
			for (int p = 0; p <= PH_N; p++) {
				for (long i = 0; i < n; i++) {
					col[i] = 0;
					if (p < PH_N)
						col[i] = ph[j].v[i][p];
					else
						for (int q = PH_INIT; q <= PH_GETTAG; q++)
							col[i] += ph[j].v[i][q];
				}
				v[j][p][r] = median(col, (int)n) * 1e6;
			}
		}
	}
	for (int j = 0; j < 2; j++)
		for (int p = 0; p <= PH_N; p++)
			out[j][p] = median(v[j][p], rounds);
	rc = 0;
	if (cc->engine && prov_counter("eip93-software-messages") != sm0) {
		fail("per-call timing: %s: messages left the engine", cc->title);
		rc = -1;
	}
out_timing:
	sys_timing = 0;
out:
	free(col);
	free(ph[0].v);
	free(ph[1].v);
	evp13_close(&e[0]);
	evp13_close(&e[1]);
	return rc;
}

void section_calls(void)
{
	static const struct call_case cases[] = {
		{ "engine enc 16 KiB", 1, 1, 16384 },
		{ "engine dec 16 KiB", 1, 0, 16384 },
		{ "deleg. enc 16 B", 0, 1, 16 },
		{ "deleg. dec 16 B", 0, 0, 16 },
	};
	static const char *const rows[PH_N + 1] = {
		[PH_INIT] = "init (nonce)",	[PH_SETTAG] = "set tag",
		[PH_AAD] = "AAD update",	[PH_DATA] = "data update",
		[PH_SYS] = "  of which AF_ALG", [PH_FINAL] = "final",
		[PH_GETTAG] = "get tag",	[PH_N] = "total"
	};
	static const int order[PH_N + 1] = { PH_INIT, PH_SETTAG, PH_AAD,    PH_DATA,
					     PH_SYS,  PH_FINAL,	 PH_GETTAG, PH_N };
	double res[4][2][PH_N + 1];
	int ok[4];

	printf("\n4. Per EVP call of a TLS 1.3 record (us per message, medians; diagnostics)\n");
	printf("   engine: eip93 real (AF_ALG) vs hot (AF_ALG answered in user space); "
	       "delegated: default\n   vs eip93; the two alternate message by message; "
	       "total: median of the per-message sums\n\n");
	for (int i = 0; i < 4; i++) {
		ok[i] = call_case_run(&cases[i], res[i]) == 0;
		if (!ok[i])
			fail("per-call timing: %s", cases[i].title);
	}
	printf("   %-18s |", "call");
	for (int i = 0; i < 4; i++)
		printf(" %-19s|", cases[i].title);
	printf("\n   %-18s |", "");
	for (int i = 0; i < 4; i++)
		printf(" %9s %9s|", cases[i].engine ? "real" : "default",
		       cases[i].engine ? "hot" : "eip93");
	printf("\n");
	for (int q = 0; q <= PH_N; q++) {
		int p = order[q];

		printf("   %-18s |", rows[p]);
		for (int i = 0; i < 4; i++) {
			if (ok[i])
				printf(" %9.2f %9.2f|", res[i][0][p], res[i][1][p]);
			else
				printf(" %9s %9s|", "-", "-");
		}
		printf("\n");
	}
}
