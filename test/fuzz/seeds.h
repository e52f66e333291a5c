// SPDX-License-Identifier: Apache-2.0
/* The seed corpus as code (seeds.c). */
#ifndef EIP93_FUZZ_SEEDS_H
#define EIP93_FUZZ_SEEDS_H

/* fz_emit_seeds() - write DIR/{corpus,regress,integrity}/NAME; 0 or -1. */
int fz_emit_seeds(const char *dir);

#endif /* EIP93_FUZZ_SEEDS_H */
