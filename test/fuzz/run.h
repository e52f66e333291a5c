// SPDX-License-Identifier: Apache-2.0
/*
 * Running a call script on one implementation ("side"): the EVP calls each
 * step makes, and the transcript of what every call returned and wrote.
 * Both sides run the same step, then their transcripts of that step are
 * compared (compare.c), so a divergence is reported at the step that made it.
 *
 * Each side keeps a model of what the script has set up (key, IV, AAD, TLS
 * fixed IV, sequence numbers).  The model is not an oracle: it only lets a
 * decryption step feed a *valid* ciphertext and tag (computed with the
 * reference cipher), so decryptions authenticate and reach the engine.  A
 * wrong model costs coverage, never a false divergence: both sides get the
 * same inputs.
 */
#ifndef EIP93_FUZZ_RUN_H
#define EIP93_FUZZ_RUN_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "script.h"

struct fz_entry {
	char what[64];
	long long ret, len;
	size_t off, n; /* bytes at buf + off */
};

struct fz_tr {
	struct fz_entry *e;
	size_t ne, cap;
	unsigned char *buf;
	size_t nbuf, capbuf;
};

struct fz_model {
	int kidx; /* key size of the cipher the slot was set up with */
	unsigned char key[32];
	int have_key;
	unsigned char iv[128];
	size_t ivlen;
	int enc;
	unsigned char aad[4 * FZ_MAX_AAD];
	size_t aadlen;	       /* since the last IV */
	unsigned char tag[16]; /* the last valid tag the model computed or read */
	unsigned char fixed[12];
	int fixed_len;	      /* 4 (TLS 1.2), 12 (SET_IV_FIXED -1), 0 none */
	unsigned char inv[8]; /* whole-IV mode: the next invocation field */
	unsigned char last_eiv[8];
	uint64_t seq12, seq13;
	/* For FUZZ_AVOID_KNOWN: what the known defects need. */
	int aad_pending;  /* a TLS1_AAD was given, no update since */
	int tls_used;	  /* a TLS 1.2 record ran since the last IV */
	int tag_ok;	  /* the last call was a successful encrypting final */
	int odd_tag;	  /* a tag of another length than 16 was set */
	int zero_aad;	  /* a zero-length EVP_Cipher AAD since the last IV */
	int empty_update; /* a zero-length data update since the last IV */
	/* AES-CTR and AES-CBC: the slot's mode (0 CTR, 1 CBC) and padding. */
	int smode;
	int spad;
	int nopad_flag; /* EVP_CIPH_NO_PADDING: EVP_CIPHER_CTX_set_padding(0) (a new cipher keeps it) */
	int kdir;	/* the direction the last key was set in (CBC's key schedule) */
	int tls_on;	/* tls-version and tls-mac-size set (maybe) */
	int tls_mac;
	int mac_owned; /* a CBC record may have left an allocated tls-mac (skc.h, fzs_copy()) */
	int fed;       /* data went in since the last init */
};

struct fz_side {
	const char *label;
	const EVP_CIPHER *c[3];	  /* the implementation under test */
	const EVP_CIPHER *ref[3]; /* default provider: valid ciphertexts */
	/* AES-CTR, AES-CBC (all key sizes) of the same two providers: a mode switched by init. */
	const EVP_CIPHER *skc[2][3], *skc_ref[2][3];
	EVP_CIPHER_CTX *x[2];
	struct fz_model m[2];
	int cur;
	struct fz_tr tr;
	const struct fz_script *s;
	size_t opno; /* the step running now */
	/*
	 * AES-CBC/CTR TLS records' buffers, freed with the contexts: a tls-mac
	 * left pointing into an earlier record's buffer stays readable, and no
	 * later buffer takes its address (skc_macro.c).
	 */
	void *kept[2 * FZ_MAX_OPS];
	size_t nkept;
};

/* PRNG purposes: every byte string a step uses, from (seed, step, purpose). */
enum fz_purpose { P_KEY, P_IV, P_AAD, P_DATA, P_JUNK, P_FIXED, P_EIV, P_SIV13, P_NPURPOSE };

extern const size_t fz_key_lens[3];

void fz_tr_reset(struct fz_tr *t);
void fz_tr_free(struct fz_tr *t);
void fz_log(struct fz_tr *t, const char *what, long long ret, long long len, const void *bytes,
	    size_t n);
void fz_fill(const struct fz_side *sd, enum fz_purpose p, uint64_t idx, unsigned char *b, size_t n);
void *fz_xmalloc(size_t n);

/* fz_side_start() - fresh contexts; the implicit first step: init(cipher, key 0, IV 0). */
void fz_side_start(struct fz_side *sd, const struct fz_script *s);
/* fz_side_end() - free the contexts (mid-message ones too: their cleanup runs under ASan). */
void fz_side_end(struct fz_side *sd);
/* fz_run_op() - one step on one side, appended to sd->tr. */
void fz_run_op(struct fz_side *sd, const struct fz_op *op);

/* Helpers shared by the basic steps (run.c) and the macros (macro.c). */
EVP_CIPHER_CTX *fz_ctx(struct fz_side *sd);
int fz_evp_cipher(EVP_CIPHER_CTX *x, unsigned char *out, const unsigned char *in, size_t inl);
struct fz_model *fz_model(struct fz_side *sd);
int fz_init(struct fz_side *sd, const char *what, const EVP_CIPHER *c, const unsigned char *key,
	    const unsigned char *iv, int enc);
int fz_update(struct fz_side *sd, const char *what, int api, int enc, unsigned char *out,
	      const unsigned char *in, size_t inl);
int fz_final(struct fz_side *sd, const char *what, int api, int enc);
int fz_ctrl(struct fz_side *sd, const char *what, int type, int arg, void *ptr, size_t nout);
int fz_ref_seal(const struct fz_side *sd, const struct fz_model *m, const unsigned char *iv,
		size_t ivlen, const unsigned char *aad, size_t aadlen, const unsigned char *pt,
		size_t len, unsigned char *ct, unsigned char *tag);
void fz_query(struct fz_side *sd);
void fz_query_lists(struct fz_side *sd);
void fz_set_iv(struct fz_model *m, const unsigned char *iv, size_t ivlen);
/* fz_tls_header() - a TLS 1.2 record header with the next sequence number. */
void fz_tls_header(struct fz_model *m, size_t lenfield, unsigned char *hdr);
/* fz_inv_inc() - the invocation field counts up as OpenSSL's does. */
void fz_inv_inc(unsigned char *inv);

/*
 * fz_avoid() - with FUZZ_AVOID_KNOWN, leave a call out because it triggers
 * the known divergence @known (logged alike on both sides): 1; else 0.
 */
int fz_avoid(struct fz_side *sd, int cond, const char *known);

void fz_macro_msg(struct fz_side *sd, const struct fz_op *op);
void fz_macro_tls12(struct fz_side *sd, const struct fz_op *op);
void fz_macro_tls13(struct fz_side *sd, const struct fz_op *op);
void fz_macro_ssh(struct fz_side *sd, const struct fz_op *op);

#endif /* EIP93_FUZZ_RUN_H */
