// SPDX-License-Identifier: Apache-2.0
/*
 * tools/advice_tls12.c owns the doctor's TLS 1.2 suite advice: a CBC suite
 * (AES-128-CBC-SHA256: AES-CBC, through eip93 on the engine where its window
 * holds the record, plus libssl's HMAC-SHA256 in software: two passes)
 * against the AEAD suites (AES-128-GCM as eip93 serves it,
 * ChaCha20-Poly1305 in software), at full records, from the calibration's
 * speed lines only.  Pure.
 */
#include <stdio.h>
#include <string.h>

#include "advice.h"

/* "AES-128-CBC-SHA256 (...) X MB/s, Y CPU ns/B" as eip93 serves it. */
static void describe_cbc(char *buf, size_t len, const struct adv_reco *r, const struct adv_calib *c)
{
	if (r->cbc_engine)
		snprintf(buf, len,
			 "AES-128-CBC-SHA256 (AES-CBC on the engine (eip93, %s) + HMAC-SHA256 in "
			 "software) %.1f MB/s, %.2f CPU ns/B",
			 c->cbc.path, r->cbc_mbs, r->cbc_cpu);
	else
		snprintf(buf, len,
			 "AES-128-CBC-SHA256 (AES-CBC and HMAC-SHA256 in software) %.1f MB/s, "
			 "%.2f CPU ns/B",
			 r->cbc_mbs, r->cbc_cpu);
}

void adv_recommend_tls12(const struct adv_speeds *s, const struct adv_calib *c, struct adv_reco *r)
{
	const struct adv_speed *sw = adv_find(s, ADV_TLS_RECORD, ADV_TLS12_CBC, "software");
	const struct adv_speed *en = NULL, *use;
	const struct adv_aes *gcm = &r->aes[0];
	int chacha_best = r->chacha_mbs > gcm->mbs;
	double best = chacha_best ? r->chacha_mbs : gcm->mbs;
	const char *aead = chacha_best ? "ChaCha20-Poly1305 (ECDHE-*-CHACHA20-POLY1305)"
				       : "AES-128-GCM (ECDHE-*-AES128-GCM-SHA256)";
	char cbc[300], g[200];

	if (c->cbc.known && c->cbc.engine && c->cbc.path != NULL &&
	    c->cbc.min_size <= ADV_TLS12_CBC_LEN && ADV_TLS12_CBC_LEN <= c->cbc.max_size)
		en = adv_find(s, ADV_TLS_RECORD, ADV_TLS12_CBC, c->cbc.path);
	use = en != NULL ? en : sw;
	if (use == NULL) {
		snprintf(r->tls12, sizeof(r->tls12),
			 "the calibration has no AES-128-CBC + HMAC-SHA256 row at %d bytes (an "
			 "older eip93-doctor wrote it, or AES-CBC is not measured here): run "
			 "eip93-doctor calibrate again",
			 ADV_TLS_RECORD);
		return;
	}
	r->tls12_measured = 1;
	r->cbc_engine = en != NULL;
	r->cbc_mbs = use->mbs;
	r->cbc_cpu = use->cpu;
	r->cbc_wins = use->mbs >= ADV_MIN_GAIN * best;
	describe_cbc(cbc, sizeof(cbc), r, c);
	snprintf(g, sizeof(g), "AES-128-GCM (%s) %.1f MB/s",
		 gcm->engine ? "eip93 on the engine" : "software", gcm->mbs);
	if (r->cbc_wins)
		snprintf(
			r->tls12, sizeof(r->tls12),
			"%s beats %s and ChaCha20-Poly1305 %.1f MB/s at %d-byte records, but keep "
			"the AEAD suites first (ECDHE-*-CHACHA20-POLY1305, "
			"ECDHE-*-AES128-GCM-SHA256): "
			"a CBC suite's padding is a timing oracle unless encrypt-then-MAC is "
			"negotiated, and TLS 1.3 has only AEADs; offer ECDHE-*-AES128-SHA256 after "
			"them, for peers without AEAD, where this box serves it fastest",
			cbc, g, r->chacha_mbs, ADV_TLS_RECORD);
	else
		snprintf(r->tls12, sizeof(r->tls12),
			 "prefer %s %.1f MB/s over %s at %d-byte records: the CBC suite reaches "
			 "%.0f%% of it (AES-CBC plus a second pass over the record, HMAC-SHA256 "
			 "in software; %s, ChaCha20-Poly1305 %.1f MB/s); keep the CBC suites "
			 "after the AEADs, for TLS 1.2 peers without AEAD",
			 aead, best, cbc, ADV_TLS_RECORD, best > 0 ? 100.0 * use->mbs / best : 0.0,
			 g, r->chacha_mbs);
	if (en != NULL && sw != NULL)
		snprintf(r->cbc_only, sizeof(r->cbc_only),
			 "%s; with AES-CBC in software it would be %.1f MB/s, %.2f CPU ns/B "
			 "(eip93 sends these records to the engine by the AES-CBC window "
			 "%zu-%zu)",
			 cbc, sw->mbs, sw->cpu, c->cbc.min_size, c->cbc.max_size);
	else
		snprintf(r->cbc_only, sizeof(r->cbc_only), "%s (AES-CBC stays in software: %s)",
			 cbc,
			 !c->cbc.known	  ? "eip93 offers no AES-CBC here (the provider is off, or "
					    "cbc(aes-eip93) does not bind)"
			 : !c->cbc.engine ? "the calibration measured the engine slower"
					  : "a full record (16432 bytes to AES-CBC) is outside the "
					    "AES-CBC window");
}
