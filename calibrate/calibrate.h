/* SPDX-License-Identifier: MIT */
/*
 * The two commands of calibrate/ that eevdf-sim's command table runs
 * (cli/main.c declares them in cli/cli.h too): each takes its argv
 * (argv[0] its own name) and returns an exit code.
 */
#ifndef CAL_CALIBRATE_H
#define CAL_CALIBRATE_H

/* eevdf-sim calibrate: cmd_calibrate.c */
int cmd_calibrate(int argc, char **argv);
/* eevdf-sim kernel-check: cmd_kernel_check.c */
int cmd_kernel_check(int argc, char **argv);

#endif
