// SPDX-License-Identifier: Apache-2.0
/*
 * provider/calib_decide.c owns the calibration's decision: from a measured
 * table of engine and software speeds to "the engine for payloads [min,
 * max]" or "off, because ..." (the rule is in docs/performance.md).  Pure;
 * `eip93-doctor calibrate` measures, this decides.
 */
#include "calib_decide.h"

#include <stdio.h>
#include <string.h>

const size_t eip93_calib_sizes[EIP93_CALIB_NSIZES] = { 1024,  2048,  4096,  8192,
						       16384, 32768, 49152, 65536 };

const char *const eip93_calib_cell_names[EIP93_CALIB_NCELLS] = { "AES-128 enc", "AES-128 dec",
								 "AES-256 enc", "AES-256 dec" };

static int noisy(const struct eip93_calib_stat *s)
{
	return s->max - s->min > EIP93_CALIB_MAX_SPREAD * s->med;
}

enum eip93_calib_outcome eip93_calib_cell_outcome(const struct eip93_calib_cell *c)
{
	/* Nothing measured is no verdict. */
	if (!(c->sw.med > 0.0) || !(c->eng.med > 0.0))
		return EIP93_CELL_NOISY;
	/* Every engine round faster than every software round: robust however wide. */
	if (c->eng.min > c->sw.max && c->eng.med >= c->sw.med * EIP93_CALIB_MIN_GAIN)
		return EIP93_CELL_WIN;
	if (c->eng.max < c->sw.min)
		return EIP93_CELL_LOSE;
	/* Overlapping rounds: within noise, or too noisy to tell. */
	return noisy(&c->sw) || noisy(&c->eng) ? EIP93_CELL_NOISY : EIP93_CELL_TIE;
}

const char *eip93_calib_outcome_name(enum eip93_calib_outcome o)
{
	switch (o) {
	case EIP93_CELL_WIN:
		return "win";
	case EIP93_CELL_TIE:
		return "tie";
	case EIP93_CELL_LOSE:
		return "lose";
	default:
		return "noisy";
	}
}

static double ratio(const struct eip93_calib_cell *c)
{
	return c->sw.med > 0.0 ? c->eng.med / c->sw.med : 0.0;
}

/* The row of size @s with the lowest engine/software ratio (what limits that size). */
static int worst_cell(const struct eip93_calib_table *t, int s)
{
	int w = 0;

	for (int k = 1; k < EIP93_CALIB_NCELLS; k++)
		if (ratio(&t->cell[s][k]) < ratio(&t->cell[s][w]))
			w = k;
	return w;
}

static void describe(const struct eip93_calib_table *t, int s, int k, char *buf, size_t len)
{
	const struct eip93_calib_cell *c = &t->cell[s][k];

	snprintf(buf, len,
		 "%zu B %s: engine %.3f MB/s [%.3f-%.3f] vs software %.3f MB/s "
		 "[%.3f-%.3f], %s",
		 eip93_calib_sizes[s], eip93_calib_cell_names[k], c->eng.med, c->eng.min,
		 c->eng.max, c->sw.med, c->sw.min, c->sw.max,
		 eip93_calib_outcome_name(eip93_calib_cell_outcome(c)));
}

void eip93_calib_decide(const struct eip93_calib_table *t, struct eip93_calib_choice *out)
{
	int best_start = -1, best_len = 0, start = -1, closest = 0;
	char row[200];

	memset(out, 0, sizeof(*out));
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
		int all = 1;

		for (int k = 0; k < EIP93_CALIB_NCELLS; k++)
			all &= eip93_calib_cell_outcome(&t->cell[s][k]) == EIP93_CELL_WIN;
		out->size_wins[s] = all;
		if (ratio(&t->cell[s][worst_cell(t, s)]) >
		    ratio(&t->cell[closest][worst_cell(t, closest)]))
			closest = s;
		if (!all) {
			start = -1;
			continue;
		}
		if (start < 0)
			start = s;
		if (s - start + 1 >= best_len) { /* ">=": the larger sizes on a tie */
			best_len = s - start + 1;
			best_start = start;
		}
	}
	if (t->rounds < 3) {
		memset(out->size_wins, 0, sizeof(out->size_wins));
		snprintf(out->reason, sizeof(out->reason),
			 "only %u rounds measured (at least 3 "
			 "are needed to tell a win from noise)",
			 t->rounds);
		return;
	}
	if (best_len == 0) {
		describe(t, closest, worst_cell(t, closest), row, sizeof(row));
		snprintf(out->reason, sizeof(out->reason),
			 "%s: no payload size from 1 to 64 KiB "
			 "where the engine beats software in all four cases; closest: %s",
			 t->composition, row);
		return;
	}
	out->engine = 1;
	out->min_size = eip93_calib_sizes[best_start];
	out->max_size = eip93_calib_sizes[best_start + best_len - 1];
	/* Sizes won first; the gain (mean ratio of the worst rows, > 1.05) breaks ties. */
	{
		double g = 0.0;

		for (int s = best_start; s < best_start + best_len; s++)
			g += ratio(&t->cell[s][worst_cell(t, s)]);
		g /= best_len;
		out->score = best_len + 0.5 * (g - 1.0) / g;
	}
	{
		int s = best_start + best_len - 1;

		describe(t, s, worst_cell(t, s), row, sizeof(row));
	}
	snprintf(out->reason, sizeof(out->reason),
		 "%s: the engine beats software from %zu to "
		 "%zu bytes in all four cases (at %s)",
		 t->composition, out->min_size, out->max_size, row);
}

int eip93_calib_choose(const struct eip93_calib_table *t, size_t n, struct eip93_calib_choice *out)
{
	struct eip93_calib_choice c;
	int best = -1;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		eip93_calib_decide(&t[i], &c);
		if (i == 0)
			*out = c;
		if (c.engine && (best < 0 || c.score > out->score)) {
			best = (int)i;
			*out = c;
		}
	}
	return best;
}
