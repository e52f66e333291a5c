// SPDX-License-Identifier: Apache-2.0
/* `eip93-doctor calibrate`: the table, the calibration file, the plot. */
#include "calibrate.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The directory part of @path (dirname() may modify and return its argument). */
static void dir_of(const char *path, char *dir, size_t len)
{
	char copy[EIP93_CFG_PATH_MAX + 16];

	snprintf(copy, sizeof(copy), "%s", path);
	snprintf(dir, len, "%s", dirname(copy));
}

void calib_print_table(FILE *f, const struct calib_run *run, const char *prefix)
{
	for (int i = 0; i < EIP93_NKALG; i++) {
		const struct calib_comp *cc = &run->comp[i];
		struct eip93_calib_choice ch;

		if (!cc->bound)
			continue;
		eip93_calib_decide(&cc->table, &ch);
		fprintf(f,
			"%scomposition %s: %u rounds; MB/s median, slowest and fastest round; "
			"CPU ns per byte (median)\n",
			prefix, cc->name, cc->table.rounds);
		fprintf(f, "%s%6s %4s %3s %9s %9s %9s %9s %9s %9s %6s %8s %8s %s\n", prefix,
			"bytes", "key", "dir", "sw", "sw-min", "sw-max", "engine", "eng-min",
			"eng-max", "ratio", "sw-cpu", "eng-cpu", "row");
		for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
			for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
				const struct eip93_calib_cell *c = &cc->table.cell[s][k];

				fprintf(f,
					"%s%6zu %4d %3s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %6.2f "
					"%8.2f %8.2f %s\n",
					prefix, eip93_calib_sizes[s], k < 2 ? 128 : 256,
					k % 2 == 0 ? "enc" : "dec", c->sw.med, c->sw.min, c->sw.max,
					c->eng.med, c->eng.min, c->eng.max,
					c->sw.med > 0 ? c->eng.med / c->sw.med : 0.0, c->sw_cpu,
					c->eng_cpu,
					eip93_calib_outcome_name(eip93_calib_cell_outcome(c)));
			}
			fprintf(f, "%s%6zu size: %s\n", prefix, eip93_calib_sizes[s],
				ch.size_wins[s] ? "engine wins" : "software");
		}
		if (ch.engine)
			fprintf(f, "%swindow %s: %zu-%zu\n", prefix, cc->name, ch.min_size,
				ch.max_size);
		else
			fprintf(f, "%swindow %s: off\n", prefix, cc->name);
	}
}

int calib_check_writable(const char *path)
{
	char dir[EIP93_CFG_PATH_MAX + 16], tmp[EIP93_CFG_PATH_MAX + 48];
	int fd, err = 0;

	dir_of(path, dir, sizeof(dir));
	/* mkdir -p: /var/lib/eip93 on a fresh box. */
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		{
			char c = *p;

			*p = '\0';
			err = mkdir(dir, 0755) < 0 && errno != EEXIST ? errno : 0;
			*p = c;
		}
		if (err != 0 || *p == '\0')
			break;
	}
	if (err != 0) {
		fprintf(stderr, "eip93-doctor calibrate: cannot create %s: %s%s\n", dir,
			strerror(err),
			err == EACCES || err == EPERM ? " (run it as root, or pass --output PATH)"
						      : "");
		return -err;
	}
	snprintf(tmp, sizeof(tmp), "%s/.eip93-calibration.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "eip93-doctor calibrate: cannot write %s: %s%s\n", path,
			strerror(err),
			err == EACCES || err == EPERM || err == EROFS
				? " (run it as root, or pass --output PATH; nothing was measured)"
				: "");
		return -err;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

int calib_write_file(const char *path, const struct eip93_calib *c, const struct calib_run *run)
{
	char dir[EIP93_CFG_PATH_MAX + 16], tmp[EIP93_CFG_PATH_MAX + 48];
	char *text = NULL, *table = NULL;
	size_t tlen = 0;
	FILE *mem;
	int fd = -1, n, r = -EIO;

	/* The table as '#' comments: the file says what it was decided from. */
	mem = open_memstream(&table, &tlen);
	if (mem == NULL)
		return -ENOMEM;
	calib_print_table(mem, run, "# ");
	fclose(mem);
	text = malloc(EIP93_CALIB_MAX_FILE);
	if (text == NULL)
		goto out;
	n = eip93_calib_format(c, tlen + 2048 < EIP93_CALIB_MAX_FILE ? table : NULL, text,
			       EIP93_CALIB_MAX_FILE);
	if (n < 0) {
		r = n;
		goto out;
	}
	dir_of(path, dir, sizeof(dir));
	snprintf(tmp, sizeof(tmp), "%s/.eip93-calibration.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	if (fchmod(fd, 0644) < 0 || write(fd, text, (size_t)n) != n || fsync(fd) < 0) {
		r = -errno;
		unlink(tmp);
		goto out;
	}
	close(fd);
	fd = -1;
	if (rename(tmp, path) < 0) {
		r = -errno;
		unlink(tmp);
		goto out;
	}
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	free(text);
	free(table);
	return r;
}

/* Mean MB/s of the four rows of one size. */
static double mean4(const struct eip93_calib_cell *row, int engine)
{
	double m = 0.0;

	for (int k = 0; k < EIP93_CALIB_NCELLS; k++)
		m += engine ? row[k].eng.med : row[k].sw.med;
	return m / EIP93_CALIB_NCELLS;
}

int calib_plot(const char *png, const struct calib_run *run, const char *title)
{
	char dat[] = "/tmp/eip93-plot-XXXXXX";
	FILE *f, *gp;
	int fd, first = -1, status, col = 3;

	for (int i = 0; i < EIP93_NKALG && first < 0; i++)
		if (run->comp[i].bound)
			first = i;
	if (first < 0)
		return -ENOENT;
	fd = mkstemp(dat);
	if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	fprintf(f, "# KiB software");
	for (int i = 0; i < EIP93_NKALG; i++)
		if (run->comp[i].bound)
			fprintf(f, " %s", run->comp[i].name);
	fputc('\n', f);
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
		fprintf(f, "%zu %.3f", eip93_calib_sizes[s] / 1024,
			mean4(run->comp[first].table.cell[s], 0));
		for (int i = 0; i < EIP93_NKALG; i++)
			if (run->comp[i].bound)
				fprintf(f, " %.3f", mean4(run->comp[i].table.cell[s], 1));
		fputc('\n', f);
	}
	fclose(f);
	/* A missing gnuplot must not kill the calibration with SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	gp = popen("command -v gnuplot >/dev/null && exec gnuplot", "w");
	if (gp == NULL) {
		unlink(dat);
		return -errno;
	}
	fprintf(gp,
		"set terminal png size 800,480 font ',10'\nset output '%s'\n"
		"set title \"%s\" noenhanced\nset xlabel 'payload (KiB)'\n"
		"set ylabel 'MB/s (mean of AES-128/256 enc/dec medians)'\nset logscale x 2\n"
		"set xtics (1,2,4,8,16,32,48,64)\nset key bottom right noenhanced\nset grid\n"
		"set yrange [0:*]\nplot '%s' using 1:2 with linespoints lw 2 title 'software "
		"(default provider)'",
		png, title, dat);
	for (int i = 0; i < EIP93_NKALG; i++)
		if (run->comp[i].bound)
			fprintf(gp, ", '%s' using 1:%d with linespoints lw 2 title 'eip93 %s'", dat,
				col++, run->comp[i].name);
	fputc('\n', gp);
	status = pclose(gp);
	unlink(dat);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -EIO;
	return 0;
}
