// SPDX-License-Identifier: Apache-2.0
/*
 * The calibration's decision: from a measured table to "the engine for
 * payloads [min, max]" or "off, because ...".  Pure (numbers in, verdict
 * out), so host tests feed it synthetic tables; `eip93-doctor calibrate`
 * measures the table and writes what this decides.  The rule is in
 * docs/performance.md; guest tests recompute it from the printed table.
 */
#ifndef EIP93_CALIB_DECIDE_H
#define EIP93_CALIB_DECIDE_H

#include <stddef.h>

#define EIP93_CALIB_NSIZES 8	   /* 1, 2, 4, 8, 16, 32, 48, 64 KiB */
#define EIP93_CALIB_NCELLS 4	   /* AES-128 enc, AES-128 dec, AES-256 enc, AES-256 dec */
#define EIP93_CALIB_MIN_GAIN 1.05  /* a win is at least 5% faster (medians) */
#define EIP93_CALIB_MAX_SPREAD 0.5 /* overlapping rows spread wider than this are "noisy" */

extern const size_t eip93_calib_sizes[EIP93_CALIB_NSIZES];
extern const char *const eip93_calib_cell_names[EIP93_CALIB_NCELLS];

/* One series of rounds: MB/s median, slowest and fastest round. */
struct eip93_calib_stat {
	double med, min, max;
};

struct eip93_calib_cell {
	struct eip93_calib_stat sw;  /* the default provider */
	struct eip93_calib_stat eng; /* eip93's engine path */
	double sw_cpu, eng_cpu;	     /* CPU ns per byte (medians), shown, not decided on */
};

/* One composition's measurements. */
struct eip93_calib_table {
	const char *composition;
	unsigned int rounds;
	struct eip93_calib_cell cell[EIP93_CALIB_NSIZES][EIP93_CALIB_NCELLS];
};

enum eip93_calib_outcome {
	EIP93_CELL_WIN =
		0,	/* slowest engine round beats the fastest software round, by >= 5% median */
	EIP93_CELL_TIE, /* ranges overlap: within noise */
	EIP93_CELL_LOSE,  /* fastest engine round below the slowest software round */
	EIP93_CELL_NOISY, /* ranges overlap and a spread is above 50% of its median (or 0 MB/s) */
};

/* eip93_calib_cell_outcome() - one row's verdict. */
enum eip93_calib_outcome eip93_calib_cell_outcome(const struct eip93_calib_cell *c);

/* eip93_calib_outcome_name() - "win", "tie", "lose", "noisy". */
const char *eip93_calib_outcome_name(enum eip93_calib_outcome o);

struct eip93_calib_choice {
	int engine; /* 1: the engine in [min_size, max_size] */
	size_t min_size, max_size;
	int size_wins[EIP93_CALIB_NSIZES]; /* every cell at that size wins */
	double score;			   /* to compare compositions: sizes won, then gain */
	char reason[400];		   /* with the measured numbers */
};

/**
 * eip93_calib_decide() - one composition's window.
 *
 * A size wins when all four of its rows win; the window is the longest run
 * of consecutive winning sizes (the larger sizes on a tie), from its smallest
 * to its largest size.  No winning size, or fewer than 3 rounds: off.
 */
void eip93_calib_decide(const struct eip93_calib_table *t, struct eip93_calib_choice *out);

/**
 * eip93_calib_choose() - the best of @n compositions (in the gate's order).
 *
 * Return: the index of the composition with the widest window (more gain,
 * then the earlier one, on a tie), or -1 when every one is off; @out is its
 * choice, or for -1 the first composition's (its reason says why).
 */
int eip93_calib_choose(const struct eip93_calib_table *t, size_t n, struct eip93_calib_choice *out);

#endif /* EIP93_CALIB_DECIDE_H */
