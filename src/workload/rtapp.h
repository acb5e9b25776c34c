/* SPDX-License-Identifier: MIT */
/*
 * rt-app import (src/workload/rtapp.c): recognise an rt-app JSON workload
 * (scheduler-tools/rt-app) and translate it into the text of an equivalent
 * native workload ("format": "eevdf-sim-workload/1"), which the normal
 * loader then parses.  docs/rtapp-import.md gives the mapping.
 */
#ifndef EEVDF_RTAPP_H
#define EEVDF_RTAPP_H

#include <stddef.h>

#include "eevdf/workload.h"

/*
 * mem, iorun and memrun become CPU work of 1 ns per this many bytes
 * (10 GB/s, a memset on one core of a current machine); approximate.
 */
#define EEVDF_RTAPP_BYTES_PER_NS 10

/*
 * 1 when buf (len bytes, need not be NUL-terminated) looks like rt-app: a
 * top-level object whose "tasks" is an object and which has no "format"
 * key (a native workload has a "tasks" array and a "format").  Comments
 * are skipped; nothing is allocated.  0 otherwise.
 */
int eevdf__rtapp_detect(const char *buf, size_t len);

/*
 * 1 when buf (as for eevdf__rtapp_detect()) is a piece of an rt-app file
 * made to be merged with others (rt-app's doc/merge.py): a top-level
 * object whose keys are only "global" and "resources", at least one of
 * them.  The translator refuses such a text with a message that says so.
 * 0 otherwise; nothing is allocated.
 */
int eevdf__rtapp_fragment(const char *buf, size_t len);

/*
 * Translate rt-app text into native workload text.  filename labels
 * diagnostics and names the workload (NULL: "<memory>").  Returns 0 and
 * *json_out, a NUL-terminated string from cJSON's allocator (free() it,
 * or cJSON_free() if cJSON_InitHooks() changed the allocator); or
 * EEVDF_EPARSE with diag filled (file, rt-app JSON path such as
 * "tasks.thread0.phases.light.timer", reason; line for syntax errors),
 * EEVDF_ENOMEM, EEVDF_EINVAL (json_out NULL, or buf NULL with len > 0).
 * diag may be NULL.
 */
int eevdf__rtapp_translate(const char *buf, size_t len, const char *filename,
			   char **json_out, struct eevdf_diag *diag);

/*
 * eevdf__rtapp_translate(), and what the translation ignored or
 * approximated: on success *notes is an array of *nr_notes notes (NULL
 * and 0 when there is none) from cJSON's allocator, in the order met, one
 * per key or value, each with the file, the rt-app path and the message
 * ("ignored: ...", "approximated: ..."), line 0.  On error *notes is NULL
 * and *nr_notes 0.  notes and nr_notes are both NULL (no notes wanted) or
 * both set (else EEVDF_EINVAL).
 */
int eevdf__rtapp_translate_notes(const char *buf, size_t len,
				 const char *filename, char **json_out,
				 struct eevdf_diag **notes, size_t *nr_notes,
				 struct eevdf_diag *diag);

/*
 * The lenient reading of rt-app files, in place: blank out comments and
 * trailing commas (before } or ]) outside strings.  Every removed byte
 * becomes a space except newlines, so offsets and line numbers stay those
 * of the file.  Returns 0, or -1 with *bad at the start of an unterminated
 * comment.
 */
int eevdf__rtapp_strip(char *buf, size_t len, size_t *bad);

#endif
