// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-doctor's recommendation: which AEAD and which path serve
 * a TLS peer fastest on this box, and which traffic shapes fall outside the
 * engine's window.  Pure (text and numbers in, verdict out) so host tests
 * feed it any calibration; the numbers come only from the box's
 * calibration file (its "# speed" lines, written by calib_print_speeds()).
 */
#ifndef EIP93_TOOLS_ADVICE_H
#define EIP93_TOOLS_ADVICE_H

#include <stddef.h>

#include "../engine/engine.h"
#include "../provider/calib_decide.h"
#include "../provider/soc.h"

#define ADV_PATH 96
/*
 * Per size: software AES-128/256-GCM, ChaCha20-Poly1305, AES-128/256-GCM of
 * each row x composition, AES-128/256-CTR and -CBC in software and on each
 * row, and the TLS 1.2 CBC record (software and each row).
 */
#define ADV_MAXSPEEDS                                                                              \
	(EIP93_CALIB_NSIZES * (3 + 2 * EIP93_NENGINES * EIP93_SOC_MAX_COMPS +                      \
			       4 * (1 + EIP93_NENGINES) + 1 + EIP93_NENGINES))
/* A TLS 1.2 CBC suite's record: AES-128-CBC (eip93 or software) + HMAC-SHA256 (software). */
#define ADV_TLS12_CBC "aes-128-cbc-hmac-sha256"
#define ADV_TLS_RECORD 16384 /* the measured size nearest a full TLS record */
#define ADV_MIN_GAIN 1.05    /* as the calibration: a win is at least 5% */

/*
 * One "# speed BYTES PATH MBS CPU" line: PATH is "cipher:software",
 * "cipher:composition" (AF_ALG) or "cipher:composition@cryptodev".
 */
struct adv_speed {
	size_t bytes;
	char path[ADV_PATH];
	double mbs, cpu;
};

struct adv_speeds {
	int n;
	struct adv_speed v[ADV_MAXSPEEDS];
};

/**
 * adv_parse_speeds() - collect the speed lines of a calibration file's text.
 * Return: the number found (malformed speed lines are skipped).
 */
int adv_parse_speeds(const char *text, struct adv_speeds *out);

/* adv_find() - the speed of @cipher over @path ("software" or a composition) at @bytes, or NULL. */
const struct adv_speed *adv_find(const struct adv_speeds *s, size_t bytes, const char *cipher,
				 const char *path);

/* The AES-CBC window the provider routes by (eip93-status's "AES-CBC ..."). */
struct adv_cbc {
	int known;  /* the status names it (AES-CBC offered on the engine's road) */
	int engine; /* a window, not "off" */
	size_t min_size, max_size;
	const char *path; /* the CBC speed lines' engine path: "cbc(aes-eip93)[@<row>]" */
};

/* What the calibration decided (the file's keys). */
struct adv_calib {
	int present;		 /* a current calibration was read */
	int engine;		 /* verdict = engine */
	const char *composition; /* composition = */
	size_t min_size, max_size;
	struct adv_cbc cbc;
};

/* What AES-CBC sees of a full TLS 1.2 CBC-SHA256 record: 16384 + its MAC + a padding block. */
#define ADV_TLS12_CBC_LEN (ADV_TLS_RECORD + 32 + 16)

/* One AES-GCM key size as eip93 serves it at ADV_TLS_RECORD bytes. */
struct adv_aes {
	int bits;
	int engine; /* the provider sends these records to the engine */
	double mbs, cpu;
};

struct adv_reco {
	int measured;	 /* 0: no advice (@text says how to get a measurement) */
	int chacha_wins; /* ChaCha20-Poly1305 is faster for a peer offering both */
	double chacha_mbs, chacha_cpu;
	struct adv_aes aes[2]; /* AES-128-GCM, AES-256-GCM */
	char both[768];	       /* a peer that offers both AEADs */
	char aes_only[768];    /* a peer (or policy) that allows only AES-GCM */
	int tls12_measured;    /* the AES-128-CBC + HMAC-SHA256 row is in the calibration */
	int cbc_engine;	       /* its AES-CBC goes to the engine */
	int cbc_wins;	       /* it beats both AEADs by 5% */
	double cbc_mbs, cbc_cpu;
	char tls12[1024];   /* which TLS 1.2 suites to prefer, and why */
	char cbc_only[512]; /* a TLS 1.2 peer without AEAD (CBC suites only) */
	char text[256];	    /* !measured: why, and what to run */
};

/**
 * adv_recommend() - the recommendation from @s and @c (@s may be NULL: no
 * calibration; @why then says why, e.g. "uncalibrated (no /var/lib/...)").
 */
void adv_recommend(const struct adv_speeds *s, const struct adv_calib *c, const char *why,
		   struct adv_reco *r);

/**
 * adv_recommend_tls12() - @r's TLS 1.2 lines (tools/advice_tls12.c), from
 * @r's AEAD figures (adv_recommend() has filled them) and the
 * "aes-128-cbc-hmac-sha256" speed lines: AES-128-CBC-SHA256 as eip93
 * serves it (the engine when @c->cbc's window holds ADV_TLS12_CBC_LEN)
 * against AES-128-GCM as eip93 serves it and ChaCha20-Poly1305.
 */
void adv_recommend_tls12(const struct adv_speeds *s, const struct adv_calib *c, struct adv_reco *r);

/* The server settings that prefer ChaCha20-Poly1305 and keep AES-GCM for peers without it. */
extern const char adv_ciphersuites[];	      /* TLS 1.3 order */
extern const char adv_cipherlist[];	      /* TLS 1.2 order */
extern const char *const adv_server_names[4]; /* "nginx", "haproxy", "stunnel", "openssl.cnf" */

/* adv_server_settings() - the lines for server @i of adv_server_names. */
const char *adv_server_settings(int i);

/* A traffic shape: the payload length the AEAD sees for one full-size unit. */
struct adv_shape {
	const char *name;
	size_t bytes;
	int inside;	    /* within [min, max] of the window (0 when there is none) */
	size_t suggest_max; /* when above the window: max-size that covers it */
	char advice[512];
};

#define ADV_NSHAPES 3
#define ADV_COVER 256 /* at most this far past a winning size (1.6% of 16 KiB: below a win's 5%) */

/**
 * adv_cover_shapes() - a calibrated window's max-size, raised to cover the
 * traffic shapes that lie at most ADV_COVER bytes past it (TLS 1.3 full
 * records, 16385, past 16384; OpenSSH bulk packets, 32784, past 32768):
 * the calibration measured the engine winning at @max, and a message a few
 * bytes longer costs the same per byte.  Return: the new max (@max when
 * nothing is that close); @why (may be NULL) names the shape covered.
 */
size_t adv_cover_shapes(size_t max, const char **why);

/**
 * adv_shapes() - the full-size shapes of TLS 1.2, TLS 1.3 and OpenSSH
 * against the window [@wmin, @wmax] (@wmax 0: no window, the engine is
 * off), with what to change when one falls outside; @s and @c say whether
 * the engine won at the sizes around it.
 */
void adv_shapes(size_t wmin, size_t wmax, const struct adv_speeds *s, const struct adv_calib *c,
		struct adv_shape out[ADV_NSHAPES]);

#endif /* EIP93_TOOLS_ADVICE_H */
