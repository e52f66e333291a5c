// SPDX-License-Identifier: Apache-2.0
/* eip93-doctor's recommendation and traffic shapes (tools/advice.h): pure. */
#include "advice.h"

#include <stdio.h>
#include <string.h>

#define SUITES "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384"
#define LIST                                                                                       \
	"ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:" \
	"ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384"

const char adv_ciphersuites[] = SUITES;
const char adv_cipherlist[] = LIST;
const char *const adv_server_names[4] = { "nginx", "haproxy", "stunnel", "openssl.cnf" };

static const char *const settings[4] = {
	/* nginx: server or http block; OpenSSL applies server preference to TLS 1.3 too. */
	"ssl_prefer_server_ciphers on;\n"
	"ssl_ciphers " LIST ";\n"
	"ssl_conf_command Ciphersuites " SUITES ";",
	/* haproxy: global section; the server's order is its default. */
	"ssl-default-bind-ciphersuites " SUITES "\n"
	"ssl-default-bind-ciphers " LIST "\n"
	"(haproxy enforces the server's order unless a bind line has prefer-client-ciphers: "
	"remove it)",
	/* stunnel: each server service. */
	"ciphersuites = " SUITES "\n"
	"ciphers = " LIST "\n"
	"options = CIPHER_SERVER_PREFERENCE",
	/* openssl.cnf: every program that uses the system default (s_server, and daemons
	 * that do not set their own order). */
	"[openssl_init]\nssl_conf = ssl_sect\n"
	"[ssl_sect]\nsystem_default = system_default_sect\n"
	"[system_default_sect]\n"
	"Ciphersuites = " SUITES "\n"
	"CipherString = " LIST "\n"
	"Options = ServerPreference",
};

const char *adv_server_settings(int i)
{
	return i >= 0 && i < 4 ? settings[i] : "";
}

int adv_parse_speeds(const char *text, struct adv_speeds *out)
{
	const char *p = text;

	out->n = 0;
	while (p != NULL && *p != '\0') {
		const char *nl = strchr(p, '\n');
		struct adv_speed v;
		char path[ADV_PATH + 1];

		if (strncmp(p, "# speed ", 8) == 0 && out->n < ADV_MAXSPEEDS &&
		    sscanf(p + 8, "%zu %96s %lf %lf", &v.bytes, path, &v.mbs, &v.cpu) == 4 &&
		    strlen(path) < ADV_PATH && strchr(path, ':') != NULL && v.mbs >= 0 &&
		    v.cpu >= 0) {
			memcpy(v.path, path, strlen(path) + 1); /* shorter than ADV_PATH: checked */
			out->v[out->n++] = v;
		}
		p = nl != NULL ? nl + 1 : NULL;
	}
	return out->n;
}

const struct adv_speed *adv_find(const struct adv_speeds *s, size_t bytes, const char *cipher,
				 const char *path)
{
	size_t cl = strlen(cipher);

	for (int i = 0; s != NULL && i < s->n; i++)
		if (s->v[i].bytes == bytes && strncmp(s->v[i].path, cipher, cl) == 0 &&
		    s->v[i].path[cl] == ':' && strcmp(s->v[i].path + cl + 1, path) == 0)
			return &s->v[i];
	return NULL;
}

static const char *aes_name(int bits)
{
	return bits == 128 ? "aes-128-gcm" : "aes-256-gcm";
}

/* The path eip93 takes for full TLS records of one key size; 0 when unmeasured. */
static int aes_path(const struct adv_speeds *s, const struct adv_calib *c, int bits,
		    struct adv_aes *a)
{
	const struct adv_speed *sw = adv_find(s, ADV_TLS_RECORD, aes_name(bits), "software");
	const struct adv_speed *en = NULL;

	if (c->engine && c->composition != NULL && c->min_size <= ADV_TLS_RECORD &&
	    ADV_TLS_RECORD <= c->max_size)
		en = adv_find(s, ADV_TLS_RECORD, aes_name(bits), c->composition);
	a->bits = bits;
	a->engine = en != NULL;
	if (en == NULL && sw == NULL)
		return 0;
	a->mbs = en != NULL ? en->mbs : sw->mbs;
	a->cpu = en != NULL ? en->cpu : sw->cpu;
	return 1;
}

static void describe(char *buf, size_t len, const struct adv_aes *a, const struct adv_calib *c)
{
	if (a->engine)
		snprintf(buf, len, "AES-%d-GCM on the engine (eip93, %s) %.1f MB/s, %.2f CPU ns/B",
			 a->bits, c->composition, a->mbs, a->cpu);
	else
		snprintf(buf, len,
			 "AES-%d-GCM in software (the default provider) %.1f MB/s, %.2f CPU "
			 "ns/B",
			 a->bits, a->mbs, a->cpu);
}

void adv_recommend(const struct adv_speeds *s, const struct adv_calib *c, const char *why,
		   struct adv_reco *r)
{
	const struct adv_speed *ch;
	const struct adv_aes *best;
	char d[2][200];

	memset(r, 0, sizeof(*r));
	if (s == NULL || c == NULL || !c->present) {
		snprintf(r->text, sizeof(r->text),
			 "no measurement to advise from (%s): run eip93-doctor calibrate (as "
			 "root); it measures ChaCha20-Poly1305, software AES-GCM and the engine "
			 "here",
			 why != NULL ? why : "no calibration");
		return;
	}
	ch = adv_find(s, ADV_TLS_RECORD, "chacha20-poly1305", "software");
	if (ch == NULL || !aes_path(s, c, 128, &r->aes[0]) || !aes_path(s, c, 256, &r->aes[1])) {
		snprintf(r->text, sizeof(r->text),
			 "the calibration has no %s row at %d bytes (an older eip93-doctor wrote "
			 "it): run eip93-doctor calibrate again",
			 ch == NULL ? "ChaCha20-Poly1305" : "AES-GCM", ADV_TLS_RECORD);
		return;
	}
	r->measured = 1;
	r->chacha_mbs = ch->mbs;
	r->chacha_cpu = ch->cpu;
	best = r->aes[1].mbs > r->aes[0].mbs ? &r->aes[1] : &r->aes[0];
	describe(d[0], sizeof(d[0]), &r->aes[0], c);
	describe(d[1], sizeof(d[1]), &r->aes[1], c);
	r->chacha_wins = ch->mbs >= ADV_MIN_GAIN * best->mbs;
	if (r->chacha_wins)
		snprintf(
			r->both, sizeof(r->both),
			"ChaCha20-Poly1305 (software) %.1f MB/s, %.2f CPU ns/B beats %s at %d-byte "
			"records: make the server prefer ChaCha20-Poly1305 (settings below)",
			ch->mbs, ch->cpu, best == &r->aes[0] ? d[0] : d[1], ADV_TLS_RECORD);
	else if (best->mbs >= ADV_MIN_GAIN * ch->mbs)
		snprintf(
			r->both, sizeof(r->both),
			"%s beats ChaCha20-Poly1305 (software) %.1f MB/s, %.2f CPU ns/B at %d-byte "
			"records: keep AES-GCM (AES-%d-GCM) first in the server's order",
			best == &r->aes[0] ? d[0] : d[1], ch->mbs, ch->cpu, ADV_TLS_RECORD,
			best->bits);
	else
		snprintf(r->both, sizeof(r->both),
			 "%s and ChaCha20-Poly1305 (software) %.1f MB/s, %.2f CPU ns/B are within "
			 "5%% at %d-byte records: either order; %s uses less CPU per byte",
			 best == &r->aes[0] ? d[0] : d[1], ch->mbs, ch->cpu, ADV_TLS_RECORD,
			 best->cpu < ch->cpu ? "AES-GCM" : "ChaCha20-Poly1305");
	snprintf(r->aes_only, sizeof(r->aes_only),
		 "eip93 keeps serving it: %s; %s (each message goes to the engine or to "
		 "software by this calibration; keep eip93 activated)",
		 d[0], d[1]);
	adv_recommend_tls12(s, c, r);
}

/* Does the engine (composition @comp) beat software by 5% at @bytes for both key sizes? */
static int engine_wins(const struct adv_speeds *s, const char *comp, size_t bytes, double *e,
		       double *w)
{
	int wins = 1;

	*e = *w = 0;
	for (int b = 128; b <= 256; b += 128) {
		const struct adv_speed *sw = adv_find(s, bytes, aes_name(b), "software");
		const struct adv_speed *en = comp ? adv_find(s, bytes, aes_name(b), comp) : NULL;

		if (sw == NULL || en == NULL)
			return -1;
		if (en->mbs < ADV_MIN_GAIN * sw->mbs)
			wins = 0;
		*e += en->mbs / 2;
		*w += sw->mbs / 2;
	}
	return wins;
}

/* The measured sizes around @b: the largest <= b and the smallest >= b (0 when none). */
static void bracket(size_t b, size_t *lo, size_t *hi)
{
	*lo = *hi = 0;
	for (int i = 0; i < EIP93_CALIB_NSIZES; i++) {
		if (eip93_calib_sizes[i] <= b)
			*lo = eip93_calib_sizes[i];
		if (eip93_calib_sizes[i] >= b && *hi == 0)
			*hi = eip93_calib_sizes[i];
	}
}

static void above(struct adv_shape *sh, size_t wmin, size_t wmax, const struct adv_speeds *s,
		  const struct adv_calib *c)
{
	size_t lo, hi;
	double e, w;
	int won;

	sh->suggest_max = (sh->bytes + 4095) / 4096 * 4096;
	bracket(sh->bytes, &lo, &hi);
	won = c != NULL && c->present && c->engine ? engine_wins(s, c->composition, lo, &e, &w)
						   : -1;
	if (won < 0)
		snprintf(sh->advice, sizeof(sh->advice),
			 "above the window %zu-%zu, so software; with no measurement of the engine "
			 "at %zu bytes here, run eip93-doctor calibrate; where it wins at %zu "
			 "bytes, "
			 "set min-size = %zu and max-size = %zu in eip93's openssl.cnf section",
			 wmin, wmax, lo, lo, wmin, sh->suggest_max);
	else if (won)
		snprintf(
			sh->advice, sizeof(sh->advice),
			"above the window %zu-%zu, so software, although the engine measured %.1f "
			"MB/s against software's %.1f at %zu bytes: set min-size = %zu and "
			"max-size "
			"= %zu in eip93's openssl.cnf section (they take precedence over the "
			"calibration)%s",
			wmin, wmax, e, w, lo, wmin, sh->suggest_max,
			hi != lo && engine_wins(s, c->composition, hi, &e, &w) != 1
				? "; the engine did not win at the next measured size, so the gain "
				  "is interpolated"
				: "");
	else
		snprintf(
			sh->advice, sizeof(sh->advice),
			"above the window %zu-%zu, so software, which the calibration measured as "
			"fast or faster at %zu bytes (engine %.1f, software %.1f MB/s): nothing to "
			"change",
			wmin, wmax, lo, e, w);
}

static const struct {
	const char *name;
	size_t bytes;
} shapes[ADV_NSHAPES] = {
	{ "TLS 1.2 full record (16384 bytes of data)", 16384 },
	{ "TLS 1.3 full record (16384 bytes + the content type)", 16385 },
	{ "OpenSSH bulk packet (32768 bytes of channel data + 16 of header and padding)", 32784 },
};

size_t adv_cover_shapes(size_t max, const char **why)
{
	size_t to = max;

	if (why != NULL)
		*why = NULL;
	for (int i = 0; i < ADV_NSHAPES; i++)
		if (shapes[i].bytes > max && shapes[i].bytes <= max + ADV_COVER) {
			to = max + ADV_COVER;
			if (why != NULL)
				*why = shapes[i].name;
		}
	return to;
}

void adv_shapes(size_t wmin, size_t wmax, const struct adv_speeds *s, const struct adv_calib *c,
		struct adv_shape out[ADV_NSHAPES])
{
	for (int i = 0; i < ADV_NSHAPES; i++) {
		struct adv_shape *sh = &out[i];

		memset(sh, 0, sizeof(*sh));
		sh->name = shapes[i].name;
		sh->bytes = shapes[i].bytes;
		if (wmax == 0) {
			snprintf(sh->advice, sizeof(sh->advice),
				 "no engine window: software (see the verdict)");
		} else if (sh->bytes >= wmin && sh->bytes <= wmax) {
			sh->inside = 1;
			snprintf(sh->advice, sizeof(sh->advice),
				 "inside the window %zu-%zu: the "
				 "engine",
				 wmin, wmax);
		} else if (sh->bytes < wmin) {
			snprintf(sh->advice, sizeof(sh->advice),
				 "below the window %zu-%zu, so software%s", wmin, wmax,
				 c != NULL && c->present && c->engine
					 ? ", which the calibration measured faster there: nothing "
					   "to change"
					 : "; lower min-size only where a calibration shows the "
					   "engine "
					   "winning");
		} else {
			above(sh, wmin, wmax, s, c);
		}
	}
}
