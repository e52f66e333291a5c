/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eip93-cavp's shared parts (cavp.c: the AES-GCM files and main;
 * cavp_skc.c: the AES-CBC and AES-CTR files).
 */
#ifndef EIP93_CAVP_H
#define EIP93_CAVP_H

#include <stddef.h>
#include <stdio.h>

#include <openssl/evp.h>

/* Bigger than any value of the files (the longest GCM IV is 128 bytes). */
#define CAVP_MAX_BIN 4096

struct cavp_totals {
	long vectors, ops, fail_vectors, errors;
};

/* Parse hex into out (capacity cap); returns the length or -1. */
long cavp_hex(const char *s, unsigned char *out, size_t cap);

/*
 * The cipher @name as the property query of the command line selects it,
 * fetched once, and checked to come from the expected provider; NULL (and
 * a message) when it cannot be had.
 */
EVP_CIPHER *cavp_cipher(const char *name);

/* The line read into @line (its end-of-line stripped): 1, 0 at the end, -1 too long. */
int cavp_line(FILE *f, char *line, size_t cap, const char *file, long *lineno);

/* cavp_skc.c: one AES-CBC (CBC*.rsp) or AES-CTR (aes-*-ctr.txt) file; 1 when all passed. */
int cavp_skc_file(const char *file, int cbc, struct cavp_totals *all);

#endif /* EIP93_CAVP_H */
