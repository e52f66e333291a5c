// SPDX-License-Identifier: Apache-2.0
/*
 * The rows as eip93-doctor reads them: the SoC profile of this board
 * (provider/soc.h, matched from the device tree as the gate matches it) and
 * the engine rows (engine/engine.h), with the few words the tools build
 * from them (a composition's path in the calibration's speed lines, "on
 * /dev/crypto", a composition's GHASH name).
 */
#ifndef EIP93_TOOLS_ROWS_H
#define EIP93_TOOLS_ROWS_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../detect/detect.h"
#include "../engine/engine.h"
#include "../provider/soc.h"

/*
 * tools_soc_classify() - the root compatible @buf (@len bytes) against the
 * SoC rows in the gate's order: the first row that is not "other" decides
 * (its row in @soc); "other" leaves @soc the first row (for the texts).
 */
enum eip93_dt_class tools_soc_classify(const unsigned char *buf, size_t len,
				       const struct eip93_soc **soc);

/* tools_soc() - this board's SoC row (the first row when the device tree matches none). */
const struct eip93_soc *tools_soc(void);

/* tools_soc_names() - every SoC row's @name, joined by " or ", into @buf. */
const char *tools_soc_names(char *buf, size_t n);

/* tools_row() - the engine row with id @id (the first row when none has it). */
const struct eip93_engine_row *tools_row(int id);

/*
 * tools_comp_path() - @kalg on @row as the calibration's speed lines name it:
 * bare on the first row (the files from before the other roads), else
 * "kalg@name" ("...@cryptodev").
 */
void tools_comp_path(char *buf, size_t n, const char *kalg, const struct eip93_engine_row *row);

/* tools_row_on() - "" on the first row, else " on <road>" (" on /dev/crypto"). */
const char *tools_row_on(const struct eip93_engine_row *row, char *buf, size_t n);

/*
 * tools_ghash_name() - the GHASH a composition names: what follows its last
 * comma, up to ')' ("ghash-neon" of "gcm_base(ctr(aes-eip93),ghash-neon)");
 * "" when it names none.
 */
static inline const char *tools_ghash_name(const char *kalg, char *buf, size_t n)
{
	const char *comma = strrchr(kalg, ',');

	snprintf(buf, n, "%s", comma != NULL ? comma + 1 : "");
	buf[strcspn(buf, ")")] = '\0';
	return buf;
}

#endif /* EIP93_TOOLS_ROWS_H */
