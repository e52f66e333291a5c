// SPDX-License-Identifier: Apache-2.0
/*
 * The box's calibration (docs/contract.md "Switching on"): a small file written by
 * `eip93-doctor calibrate` and read by the provider at its gate.  Parsing,
 * formatting and the staleness rule are pure (bytes in, verdict out) so host
 * tests can feed them any file; eip93_calib_load() is the only I/O.
 *
 * Format (docs/performance.md): "key = value" lines, '#' comments, every key
 * exactly once, nothing else.  A file that does not follow it is corrupt.
 * "backend" is the one optional key: the backend the winner was measured on;
 * a file without it (every file written before the key existed, and every
 * AF_ALG winner, which is written without it so older providers still read
 * it) means AF_ALG.
 *
 * The per-mode windows (AES-CTR, AES-CBC) are "#+ key = value" lines: a
 * comment to every provider before them (which rejects unknown keys, so a
 * new key would make their file corrupt), read by this one with the same
 * rules as the keys; a "#+" key this version does not know is a comment to
 * it too.  A file without them leaves those modes on the config's window.
 */
#ifndef EIP93_CALIB_H
#define EIP93_CALIB_H

#include <stddef.h>

#define EIP93_CALIB_FORMAT "1"
#define EIP93_CALIB_MAX_FILE 16384 /* larger is corrupt */
#define EIP93_CALIB_TEXT 160	   /* each string value, with its NUL */
#define EIP93_CALIB_REASON 512
#define EIP93_CALIB_EXT "#+ " /* the prefix of the keys older providers skip */

/* The skcipher modes with a window of their own in the file (EIP93_EMODE_CTR - 1, ...). */
enum eip93_calib_mode { EIP93_CALIB_CTR = 0, EIP93_CALIB_CBC, EIP93_CALIB_NMODES };

/*
 * One mode's window: "#+ ctr-window = MIN-MAX" (the engine for MIN..MAX
 * bytes, within 16..65536) or "#+ ctr-window = off" (that mode in software).
 */
struct eip93_calib_window {
	int set;    /* the file has the line */
	int engine; /* MIN-MAX (1) | off (0) */
	size_t min_size, max_size;
};

struct eip93_calib {
	char date[EIP93_CALIB_TEXT];	    /* date = 2026-12-01T10:00:00Z */
	char kernel[EIP93_CALIB_TEXT];	    /* kernel-release = uname -r */
	char openssl[EIP93_CALIB_TEXT];	    /* openssl-version = 3.0.17 */
	char provider[EIP93_CALIB_TEXT];    /* provider-version = 0.1.0 */
	char composition[EIP93_CALIB_TEXT]; /* one of eip93_kalg_names */
	int backend; /* backend = af_alg | cryptodev (EIP93_BACKEND_*); absent: af_alg */
	int engine;  /* verdict = engine (1) | off (0) */
	size_t min_size, max_size;			    /* the window, when engine */
	char reason[EIP93_CALIB_REASON];		    /* the measured reason */
	struct eip93_calib_window mode[EIP93_CALIB_NMODES]; /* #+ ctr-window, #+ cbc-window */
};

/* eip93_calib_mode_key() - "ctr-window", "cbc-window". */
const char *eip93_calib_mode_key(int mode);

/* Where a skcipher mode's window came from (eip93-status says it). */
enum eip93_window_from {
	EIP93_WINDOW_CONFIG = 0, /* min-size/max-size (or their defaults) */
	EIP93_WINDOW_CALIB,	 /* the calibration's "#+ <mode>-window = MIN-MAX" */
	EIP93_WINDOW_OFF,	 /* the calibration's "off": no size fits (software) */
};

/* One mode's window as the route reads it ([min_size, max_size]; off: min > max). */
struct eip93_mode_window {
	size_t min_size, max_size;
	enum eip93_window_from from;
};

/**
 * eip93_calib_mode_windows() - the AES-CTR and AES-CBC windows (@out, indexed
 * by enum eip93_calib_mode) from @c (NULL: no calibration applies) or, for a
 * mode @c has no line for (a file from before the lines), the config's
 * [@cfg_min, @cfg_max].
 */
void eip93_calib_mode_windows(const struct eip93_calib *c, size_t cfg_min, size_t cfg_max,
			      struct eip93_mode_window out[EIP93_CALIB_NMODES]);

/* eip93_calib_modes_win() - does @c give some skcipher mode a window (not off)? */
int eip93_calib_modes_win(const struct eip93_calib *c);

/**
 * eip93_calib_windows_text() - "; AES-CTR window A-B bytes (calibration)",
 * "; AES-CBC off (calibration: software)" for each mode in @w whose @bound
 * is set, appended to @buf (@len bytes, NUL-terminated).
 */
void eip93_calib_windows_text(const struct eip93_mode_window w[EIP93_CALIB_NMODES],
			      const int bound[EIP93_CALIB_NMODES], char *buf, size_t len);

enum eip93_calib_state {
	EIP93_CALIB_NONE = 0, /* calibration-file = none */
	EIP93_CALIB_ABSENT,   /* no file: uncalibrated */
	EIP93_CALIB_INVALID,  /* unreadable or corrupt: engine off */
	EIP93_CALIB_LOADED,   /* parsed; may still be stale */
};

/* What the gate gets: the file's state, its path and, when loaded, its contents. */
struct eip93_calib_load {
	enum eip93_calib_state state;
	char path[256];
	char error[256]; /* EIP93_CALIB_INVALID: why */
	struct eip93_calib cal;
};

/* The running system, compared with what a calibration recorded. */
struct eip93_calib_facts {
	const char *kernel;   /* uname -r */
	const char *openssl;  /* OpenSSL_version(OPENSSL_VERSION_STRING) */
	const char *provider; /* EIP93_VERSION */
};

/**
 * eip93_calib_parse() - parse a calibration file's bytes.
 * @err: on failure, what is wrong, naming the line
 *
 * Return: 0, or -EINVAL (corrupt) with @err filled.
 */
int eip93_calib_parse(const char *buf, size_t len, struct eip93_calib *c, char *err, size_t errlen);

/**
 * eip93_calib_format() - the file's text for @c (what parse accepts).
 * @comment: extra '#' lines (e.g. the measured table), may be NULL
 *
 * Return: bytes written (excluding the NUL), or -ENOSPC.
 */
int eip93_calib_format(const struct eip93_calib *c, const char *comment, char *buf, size_t len);

/**
 * eip93_calib_stale() - is @c for another system?
 * @why: when stale, which recorded fact differs and how
 *
 * Compares the kernel release, the OpenSSL and the provider version.  Whether
 * its composition still binds is the gate's to find out.
 * Return: 1 stale, 0 current.
 */
int eip93_calib_stale(const struct eip93_calib *c, const struct eip93_calib_facts *f, char *why,
		      size_t whylen);

/**
 * eip93_calib_load() - read @path into @out (state, error, contents).
 * @path: NULL or "" for calibration-file = none
 */
void eip93_calib_load(const char *path, struct eip93_calib_load *out);

#endif /* EIP93_CALIB_H */
