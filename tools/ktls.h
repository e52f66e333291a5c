// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-doctor's kernel TLS facts: what would put a daemon on
 * kTLS here (Options = KTLS in openssl.cnf, nginx's ssl_conf_command,
 * haproxy's ktls), whether the tls module is there, and what the kernel's
 * gcm(aes) resolves to (the highest-priority gcm(aes) in /proc/crypto): kTLS
 * bypasses every OpenSSL provider, so that driver is who encrypts its
 * records.  The scanners are pure (text in, verdict out) for host tests.
 */
#ifndef EIP93_TOOLS_KTLS_H
#define EIP93_TOOLS_KTLS_H

#include <stddef.h>

/* Where kTLS was switched on, if anywhere. */
struct ktls_setting {
	int on;		   /* 1: switched on */
	unsigned int line; /* 1-based */
	char text[200];	   /* the line, trimmed */
};

/**
 * ktls_scan_openssl_cnf() - an "Options" key whose value has the KTLS
 * flag (case-insensitive, comma-separated; "-KTLS" clears it, the last
 * mention counts).  Return: 1 on, 0 off.
 */
int ktls_scan_openssl_cnf(const char *text, struct ktls_setting *out);

/* ktls_scan_nginx() - "ssl_conf_command Options ...KTLS..." outside comments.  Return: 1/0. */
int ktls_scan_nginx(const char *text, struct ktls_setting *out);

/* ktls_scan_haproxy() - a "ktls on" bind or server keyword outside comments.  Return: 1/0. */
int ktls_scan_haproxy(const char *text, struct ktls_setting *out);

/* The kernel's answer to gcm(aes), as /proc/crypto lists it. */
struct ktls_gcm {
	int found;
	int priority;
	char driver[160];
	char module[64];
};

/**
 * ktls_best_gcm() - the highest-priority "gcm(aes)" aead of /proc/crypto's
 * text that is not internal (what crypto_alloc_aead("gcm(aes)", 0, 0), as
 * kTLS calls it, gets among the registered ones).  Return: 1 found, 0 none.
 */
int ktls_best_gcm(const char *text, struct ktls_gcm *out);

/* ktls_best_ctr() - the same for "ctr(aes)" skciphers (what a new gcm(aes) instance would use). */
int ktls_best_ctr(const char *text, struct ktls_gcm *out);

enum ktls_where {
	KTLS_ENGINE = 0, /* the EIP93 (CTR) with a GHASH on the CPU */
	KTLS_CPU,	 /* a CPU implementation: the engine never sees kTLS records */
	KTLS_UNKNOWN,	 /* no gcm(aes) instantiated yet */
};

/**
 * ktls_consequence() - one line: where kTLS's AES-GCM records are computed
 * with @driver ("" when none), and what it means on an AN7581.
 */
enum ktls_where ktls_consequence(const char *driver, char *buf, size_t len);

#endif /* EIP93_TOOLS_KTLS_H */
