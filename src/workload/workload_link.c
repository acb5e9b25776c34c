/* SPDX-License-Identifier: MIT */
/*
 * Workload loader, last phase: what needs every program compiled.  Places
 * message fields in each channel's field order, counts barrier parties,
 * catches ops that could only block for ever, builds the public views of
 * simple programs, then folds constant conditions and resolves run-time
 * object names once (after the checks, which see every op as written).
 */
#include <string.h>

#include "workload_impl.h"

#define fail_at eevdf__wl_fail_at
#define nomem eevdf__wl_nomem

static struct pop *fix_op(struct eevdf_workload *wl, const struct wl_fixup *f)
{
	return &wl->progs[f->prog].prog->ops[f->op];
}

/* The channels a fixup's op may use: its one fixed channel, or matches. */
static const u32 *fix_chans(struct eevdf_workload *wl, const struct wl_fixup *f,
			    u32 *n, u32 *one)
{
	const struct pop *op = fix_op(wl, f);

	if (op->obj.idx >= 0) {
		*one = (u32)op->obj.idx;
		*n = 1;
		return one;
	}
	*n = f->nr_match;
	return f->match;
}

static int field_index(const struct wl_object *o, const char *name)
{
	for (u32 j = 0; j < o->nr_fields; j++)
		if (strcmp(o->fields[j], name) == 0)
			return (int)j;
	return -1;
}

/* Each channel's fields: in the order senders first name them. */
static int collect_fields(struct wl_parser *p)
{
	struct eevdf_workload *wl = p->wl;

	for (size_t i = 0; i < p->nr_fix; i++) {
		const struct wl_fixup *f = &p->fix[i];
		u32 n, one;
		const u32 *ch = fix_chans(wl, f, &n, &one);

		for (u32 c = 0; !f->recv && c < n; c++) {
			struct wl_object *o = &wl->objs[ch[c]];

			for (u32 k = 0; k < f->nr_names; k++) {
				if (field_index(o, f->names[k]) >= 0)
					continue;
				if (o->nr_fields == MSG_FIELDS)
					return fail_at(p, f->path,
						       "channel '%s' would "
						       "carry more than %d "
						       "message fields",
						       o->tmpl.name,
						       MSG_FIELDS);
				o->fields[o->nr_fields] = eevdf__wl_strdup(
					f->names[k]);
				if (!o->fields[o->nr_fields++])
					return nomem(p);
			}
		}
	}
	return 0;
}

/* A send's values, moved to the field indices of its channel(s). */
static int place_send(struct wl_parser *p, const struct wl_fixup *f)
{
	struct eevdf_workload *wl = p->wl;
	struct pop *op = fix_op(wl, f);
	struct pval tmp[MSG_FIELDS];
	u32 n, one, top = 0;
	const u32 *ch = fix_chans(wl, f, &n, &one);
	int idx[MSG_FIELDS] = { 0 };

	for (u32 k = 0; k < f->nr_names; k++) {
		idx[k] = field_index(&wl->objs[ch[0]], f->names[k]);
		for (u32 c = 1; c < n; c++)
			if (field_index(&wl->objs[ch[c]], f->names[k]) !=
			    idx[k])
				return fail_at(p, f->path,
					       "the channels this send may "
					       "use order their message "
					       "fields differently; give "
					       "their senders the same fields "
					       "in the same order");
	}
	memcpy(tmp, op->field, sizeof(tmp));
	memset(op->field, 0, sizeof(op->field));
	for (u32 k = 0; k < f->nr_names; k++) {
		op->field[idx[k]] = tmp[k];
		if ((u32)idx[k] + 1 > top)
			top = (u32)idx[k] + 1;
	}
	op->nr_fields = top;
	return 0;
}

/* A recv into @m: field j of the channel lands in "@m.<name j>". */
static int place_recv(struct wl_parser *p, const struct wl_fixup *f)
{
	struct eevdf_workload *wl = p->wl;
	struct pop *op = fix_op(wl, f);
	const struct wl_object *t = NULL;
	u32 n, one;
	const u32 *ch = fix_chans(wl, f, &n, &one);
	char name[160];

	for (u32 c = 0; c < n; c++) {
		const struct wl_object *o = &wl->objs[ch[c]];
		bool same;

		if (!o->nr_fields)
			continue;
		if (!t) {
			t = o;
			continue;
		}
		same = o->nr_fields == t->nr_fields;
		for (u32 j = 0; same && j < o->nr_fields; j++)
			same = strcmp(o->fields[j], t->fields[j]) == 0;
		if (!same)
			return fail_at(p, f->path,
				       "the channels this recv may read "
				       "carry different message fields; give "
				       "their senders the same fields in the "
				       "same order");
	}
	for (u32 j = 0; t && j < t->nr_fields; j++) {
		snprintf(name, sizeof(name), "%s.%s", f->into, t->fields[j]);
		if (eevdf__wl_names_add(&wl->locals, name, strlen(name),
					&op->field_slot[j]))
			return nomem(p);
	}
	op->nr_fields = t ? t->nr_fields : 0;
	return 0;
}

/* Whether name is a field of some channel a recv into @into reads. */
static bool into_has(struct wl_parser *p, const char *into, const char *name)
{
	struct eevdf_workload *wl = p->wl;

	for (size_t i = 0; i < p->nr_fix; i++) {
		const struct wl_fixup *f = &p->fix[i];
		u32 n, one;
		const u32 *ch;

		if (!f->recv || strcmp(f->into, into) != 0)
			continue;
		ch = fix_chans(wl, f, &n, &one);
		for (u32 c = 0; c < n; c++)
			if (field_index(&wl->objs[ch[c]], name) >= 0)
				return true;
	}
	return false;
}

/*
 * "@m.x" read after a recv into @m must be a field some sender sends:
 * a misspelt field would silently read 0.
 */
static int check_fields_read(struct wl_parser *p)
{
	const struct wl_names *loc = &p->wl->locals;

	for (size_t i = 0; i < p->nr_fix; i++) {
		const struct wl_fixup *f = &p->fix[i];
		size_t n;

		if (!f->recv)
			continue;
		n = strlen(f->into);
		for (u32 k = 0; k < loc->n; k++) {
			const char *v = loc->v[k];

			if (strncmp(v, f->into, n) != 0 || v[n] != '.' ||
			    into_has(p, f->into, v + n + 1))
				continue;
			return fail_at(p, f->path,
				       "'%s' is read, but no message read "
				       "into '%s' has a field '%s'",
				       v, f->into, v + n + 1);
		}
	}
	return 0;
}

/* Ops that no other op could ever let through. */
static int run_checks(struct wl_parser *p)
{
	const struct eevdf_workload *wl = p->wl;

	for (size_t i = 0; i < p->nr_checks; i++) {
		const struct wl_check *c = &p->checks[i];
		const struct wl_object *o = &wl->objs[c->obj];

		if (c->kind == WL_CHECK_WAIT && o->tmpl.u.sem.count == 0 &&
		    !o->posted)
			return fail_at(p, c->path,
				       "sem '%s' starts at 0 and no task "
				       "posts it: this wait would block for "
				       "ever",
				       o->tmpl.name);
		if (c->kind == WL_CHECK_RECV && !o->sent)
			return fail_at(p, c->path,
				       "no task sends to channel '%s': this "
				       "recv would block for ever",
				       o->tmpl.name);
	}
	return 0;
}

/* Default parties: the tasks whose programs name the barrier. */
static int barrier_parties(struct wl_parser *p)
{
	struct eevdf_workload *wl = p->wl;
	u32 *last = malloc((wl->nr_objs ? wl->nr_objs : 1) * sizeof(*last));
	char path[64];

	if (!last)
		return nomem(p);
	for (size_t i = 0; i < wl->nr_objs; i++)
		last[i] = UINT32_MAX;
	for (size_t t = 0; t < wl->nr_tasks; t++) {
		const struct wl_prog *w = &wl->progs[wl->tasks[t].prog];

		for (u32 k = 0; k < w->nr_objs; k++) {
			u32 o = w->objs[k];

			if (wl->objs[o].tmpl.type != OBJ_BARRIER ||
			    last[o] == (u32)t)
				continue;
			last[o] = (u32)t;
			wl->objs[o].users++;
		}
	}
	free(last);
	/* spawned tasks are not known here: their barriers say how many */
	for (size_t t = 0; t < wl->nr_tmpls; t++) {
		const struct wl_prog *w = &wl->progs[wl->tmpls[t].prog];

		for (u32 k = 0; k < w->nr_objs; k++) {
			const struct wl_object *o = &wl->objs[w->objs[k]];

			if (o->tmpl.type != OBJ_BARRIER || o->parties_set)
				continue;
			snprintf(path, sizeof(path), "templates.%.40s",
				 wl->tmpls[t].name);
			return fail_at(p, path,
				       "barrier '%s' is used by a template: "
				       "give it 'parties'",
				       o->tmpl.name);
		}
	}
	for (size_t i = 0; i < wl->nr_objs; i++) {
		struct wl_object *o = &wl->objs[i];

		if (o->tmpl.type != OBJ_BARRIER)
			continue;
		if (!o->parties_set) {
			o->tmpl.u.barrier.parties = o->users;
			continue;
		}
		if (o->users && o->tmpl.u.barrier.parties > o->users) {
			snprintf(path, sizeof(path), "objects[%zu].parties",
				 o->src);
			return fail_at(p, path,
				       "barrier '%s' waits for %u parties "
				       "but only %u tasks use it (it would "
				       "never open)",
				       o->tmpl.name, o->tmpl.u.barrier.parties,
				       o->users);
		}
	}
	return 0;
}

static bool join_has(const struct wl_join *j, u32 pid)
{
	u32 lo = 0, hi = j->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (j->pids[mid] == pid)
			return true;
		if (j->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* A task that joins itself waits for its own exit: for ever. */
static int self_joins(struct wl_parser *p)
{
	const struct eevdf_workload *wl = p->wl;

	for (size_t t = 0; t < wl->nr_tasks; t++) {
		const struct program *prog = wl->progs[wl->tasks[t].prog].prog;

		for (u32 i = 0; i < prog->nr_ops; i++) {
			const struct wl_join *j;

			if (prog->ops[i].code != P_JOIN || prog->ops[i].a.c < 0)
				continue;
			j = &wl->joins[prog->ops[i].a.c];
			if (join_has(j, (u32)t + 1))
				return fail_at(p, j->path,
					       "'%s' matches the joining task "
					       "'%s' itself (it would wait "
					       "for ever)",
					       j->pattern, wl->tasks[t].name);
		}
	}
	return 0;
}

/* The public view: only run, sleep, yield and plain loops fit it. */
static int public_view(struct wl_prog *w)
{
	const struct program *prog = w->prog;
	struct eevdf_op *ops;

	for (u32 i = 0; i < prog->nr_ops; i++) {
		const struct pop *op = &prog->ops[i];

		if (op->cost.kind != PV_NONE || op->flags ||
		    op->slot != NO_SLOT || op->b.kind != PV_NONE ||
		    op->c.kind != PV_NONE)
			return 0;
		switch (op->code) {
		case P_RUN:
		case P_SLEEP:
			if (op->a.kind != PV_CONST)
				return 0;
			break;
		case P_YIELD:
			break;
		case P_LOOP:
			if (op->a.kind != PV_NONE &&
			    (op->a.kind != PV_CONST || op->a.c < 1))
				return 0;
			break;
		default:
			return 0;
		}
	}
	ops = calloc(prog->nr_ops ? prog->nr_ops : 1, sizeof(*ops));
	if (!ops)
		return EEVDF_ENOMEM;
	for (u32 i = 0; i < prog->nr_ops; i++) {
		const struct pop *op = &prog->ops[i];

		switch (op->code) {
		case P_RUN:
			ops[i].kind = EEVDF_OP_RUN;
			ops[i].duration = op->a.c;
			break;
		case P_SLEEP:
			ops[i].kind = EEVDF_OP_SLEEP;
			ops[i].duration = op->a.c;
			break;
		case P_YIELD:
			ops[i].kind = EEVDF_OP_YIELD;
			break;
		default:
			ops[i].kind = EEVDF_OP_LOOP;
			ops[i].count = op->a.kind == PV_CONST ? (u64)op->a.c :
								0;
			ops[i].body_len = op->len;
			break;
		}
	}
	w->pub = ops;
	w->nr_pub = prog->nr_ops;
	return 0;
}

static const char *object_name(const void *ud, size_t i)
{
	const struct eevdf_workload *wl = ud;

	return wl->objs[i].tmpl.name;
}

/*
 * Resolve every run-time object name once ("ch[3][@j]": a table from @j's
 * value to the object), so that running the op needs no name built and
 * searched for.  The file system ops' names are paths, not objects.
 */
static int resolve_refs(struct eevdf_workload *wl, struct program *prog)
{
	for (u32 i = 0; i < prog->nr_ops; i++) {
		struct pop *op = &prog->ops[i];

		if (op->code >= P_OPEN && op->code <= P_READDIR)
			continue;
		if (eevdf__objref_resolve_once(&op->obj, object_name, wl,
					       wl->nr_objs) ||
		    eevdf__objref_resolve_once(&op->obj2, object_name, wl,
					       wl->nr_objs))
			return EEVDF_ENOMEM;
	}
	return 0;
}

/*
 * The instances of a task that differ only in the objects a for variable
 * picks ("c2s[${i}]") run one program, each with its own bindings:
 * tbench's 64 clients then read one copy of their ops instead of 64,
 * which is what kept them out of the cache.  Each instance was compiled
 * and linked on its own, so that every check above saw its objects; here
 * its program is dropped for the first instance's when the two are the
 * same but for what they bind (else it keeps its own, which is as exact).
 */
static void share_programs(struct eevdf_workload *wl)
{
	for (size_t i = 0; i < wl->nr_progs; i++) {
		struct wl_prog *w = &wl->progs[i];
		struct program *first;

		if (!w->prog->nr_binds)
			continue;
		eevdf__program_binds(w->prog, w->binds);
		if (!w->share_with)
			continue;
		first = wl->progs[w->share_with - 1].prog;
		if (!eevdf__program_same(first, w->prog))
			continue;
		first->refs++;
		eevdf__program_unref(w->prog);
		w->prog = first;
	}
}

int eevdf__wl_link(struct wl_parser *p)
{
	struct eevdf_workload *wl = p->wl;
	int r;

	if ((r = collect_fields(p)))
		return r;
	for (size_t i = 0; i < p->nr_fix; i++) {
		r = p->fix[i].recv ? place_recv(p, &p->fix[i]) :
				     place_send(p, &p->fix[i]);
		if (r)
			return r;
	}
	if ((r = check_fields_read(p)) || (r = run_checks(p)) ||
	    (r = barrier_parties(p)) || (r = self_joins(p)))
		return r;
	/* one slot table for every task: "@wake_time" is the same slot */
	for (size_t i = 0; i < wl->nr_progs; i++) {
		wl->progs[i].prog->nr_locals = wl->locals.n;
		if (public_view(&wl->progs[i]) ||
		    eevdf__program_fold(wl->progs[i].prog) ||
		    resolve_refs(wl, wl->progs[i].prog))
			return nomem(p);
	}
	for (size_t t = 0; t < wl->nr_tasks; t++) {
		const struct wl_prog *w = &wl->progs[wl->tasks[t].prog];

		wl->tasks[t].spec.program = w->pub;
		wl->tasks[t].spec.nr_ops = w->pub ? w->nr_pub : 0;
	}
	share_programs(wl);
	return 0;
}
