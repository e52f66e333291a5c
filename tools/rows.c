// SPDX-License-Identifier: Apache-2.0
/*
 * tools/rows.c owns how eip93-doctor finds its rows: this board's SoC
 * profile, matched from the device tree in the gate's order, and the engine
 * row of a calibration's backend, with the words made from them.
 */
#include "rows.h"

const struct eip93_engine_row *tools_row(int id)
{
	const struct eip93_engine_row *r =
		eip93_engine_row_by_id(eip93_engine_rows, EIP93_NENGINES, id);

	return r != NULL ? r : &eip93_engine_rows[0];
}

enum eip93_dt_class tools_soc_classify(const unsigned char *buf, size_t len,
				       const struct eip93_soc **soc)
{
	*soc = eip93_socs[0];
	for (size_t i = 0; i < eip93_nsocs; i++) {
		enum eip93_dt_class c = eip93_dt_classify(buf, len, eip93_socs[i]->dt_match,
							  eip93_socs[i]->dt_exclude);

		if (c != EIP93_DT_OTHER) {
			if (c != EIP93_DT_MALFORMED)
				*soc = eip93_socs[i];
			return c;
		}
	}
	return EIP93_DT_OTHER;
}

const struct eip93_soc *tools_soc(void)
{
	static const struct eip93_soc *soc;
	unsigned char buf[EIP93_DT_MAX];
	const char *used;
	size_t len = 0;
	int proc_err;

	if (soc != NULL)
		return soc;
	soc = eip93_socs[0];
	if (eip93_dt_read_root(buf, sizeof(buf), &len, &used, &proc_err) == 0 &&
	    tools_soc_classify(buf, len, &soc) != EIP93_DT_MATCH)
		soc = eip93_socs[0];
	return soc;
}

const char *tools_soc_names(char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < eip93_nsocs && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
					 i == 0			? ""
					 : i + 1 == eip93_nsocs ? " or "
								: ", ",
					 eip93_socs[i]->name);
	return buf;
}

void tools_comp_path(char *buf, size_t n, const char *kalg, const struct eip93_engine_row *row)
{
	if (row == NULL || row == &eip93_engine_rows[0])
		snprintf(buf, n, "%s", kalg);
	else
		snprintf(buf, n, "%s@%s", kalg, row->name);
}

const char *tools_row_on(const struct eip93_engine_row *row, char *buf, size_t n)
{
	if (row == NULL || row == &eip93_engine_rows[0])
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, " on %s", row->road);
	return buf;
}
