// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-doctor's last sections: kernel TLS, the recommendation
 * (from this box's calibration only) and the traffic shapes against the
 * window; printed for people, or with the verdict as JSON (--json).
 */
#ifndef EIP93_TOOLS_DOCTOR_REPORT_H
#define EIP93_TOOLS_DOCTOR_REPORT_H

/* What check_provider() learnt from the provider (copies; "" when unknown). */
struct doctor_state {
	int loaded, enabled;
	char version[64];
	char gate[2048];
	char status[2048];
	char window[48];
	char calib[1024];
};

/* doctor_report() - sections [7]-[9] on stdout, or (@json) the whole JSON document. */
void doctor_report(const struct doctor_state *st, int json);

#endif /* EIP93_TOOLS_DOCTOR_REPORT_H */
