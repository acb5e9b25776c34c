/* SPDX-License-Identifier: MIT */
/*
 * The I/O model's life: built from the workload's I/O objects once they
 * are all added (eevdf__io_setup()), its kernel threads created after the
 * workload's own tasks so that those keep their pids (eevdf__io_start()),
 * its engine events dispatched (eevdf__io_event()), freed with the
 * simulation.  A simulation with no I/O object never gets one.
 */
#include <string.h>

#include "io.h"
#include "nbench.h"

static bool is_io_type(enum obj_type t)
{
	return t == OBJ_DEVICE || t == OBJ_FILESYSTEM || t == OBJ_WORKQUEUE ||
	       t == OBJ_WORK || t == OBJ_IRQ;
}

static void *push(void ***v, size_t *n, void *x)
{
	void **m = realloc(*v, (*n + 1) * sizeof(**v));

	if (!m)
		return NULL;
	*v = m;
	m[(*n)++] = x;
	return x;
}

static struct sim_object *obj_at(struct eevdf_sim *sim, int idx)
{
	return idx >= 0 && (size_t)idx < sim->nr_objs ? sim->objs[idx] : NULL;
}

static int add_device(struct eevdf_sim *sim, struct sim_object *o)
{
	struct io *io = sim->io;
	struct blkdev *d = calloc(1, sizeof(*d));
	size_t nr;

	if (!d || !push((void ***)&io->devs, &io->nr_devs, d)) {
		free(d);
		return EEVDF_ENOMEM;
	}
	d->obj = o;
	d->c = *(const struct dev_cfg *)o->u.io.cfg;
	if (d->c.irq_cpu >= sim->sched.nr_cpus || d->c.irq_cpu < 0)
		d->c.irq_cpu = 0;
	nr = d->c.multiqueue ? (size_t)sim->sched.nr_cpus : 1;
	d->run_work = calloc(nr, sizeof(*d->run_work));
	if (!d->run_work)
		return EEVDF_ENOMEM;
	for (size_t i = 0; i < nr; i++)
		eevdf__kwork_init(&d->run_work[i], KW_BLK_RUN, d);
	d->next_cpu = 0;
	d->next_cpu_batch = 8;
	eevdf__event_init(&d->irq_ev, SEV_DEV_IRQ, EVC_TICK);
	eevdf__blkdev_init(d, sim->seed);
	o->u.io.rt = d;
	return 0;
}

static int add_fs(struct eevdf_sim *sim, struct sim_object *o)
{
	struct io *io = sim->io;
	struct fsys *fs = calloc(1, sizeof(*fs));
	struct sim_object *dev;
	int r;

	if (!fs || !push((void ***)&io->fss, &io->nr_fss, fs)) {
		free(fs);
		return EEVDF_ENOMEM;
	}
	fs->obj = o;
	fs->c = *(const struct fs_cfg *)o->u.io.cfg;
	dev = obj_at(sim, fs->c.dev);
	if (!dev || dev->type != OBJ_DEVICE || !dev->u.io.rt)
		return EEVDF_EINVAL;
	fs->dev = dev->u.io.rt;
	if (fs->dev->c.none)
		fs->c.journal = false;
	snprintf(fs->jname, sizeof(fs->jname), "jbd2/%s-8", fs->c.part);
	snprintf(fs->flush_desc, sizeof(fs->flush_desc), "flush-%u:%u",
		 fs->dev->c.major, fs->dev->c.minor);
	eevdf__event_init(&fs->j.timer, SEV_JBD2_TIMER, EVC_TICK);
	eevdf__kwork_init(&fs->wb.work, KW_WRITEBACK, fs);
	fs->wb.work.wq = io->writeback;
	if ((r = eevdf__fs_init(sim, fs)))
		return r;
	o->u.io.rt = fs;
	return 0;
}

static int add_wq(struct eevdf_sim *sim, struct sim_object *o)
{
	const struct wq_cfg *c = o->u.io.cfg;
	struct workqueue *wq = eevdf__wq_alloc(sim, o->name, NULL, c->unbound,
					       c->highpri, c->max_active);

	if (!wq)
		return EEVDF_ENOMEM;
	o->u.io.rt = wq;
	return 0;
}

static int add_work(struct eevdf_sim *sim, struct sim_object *o)
{
	struct io *io = sim->io;
	struct user_work *uw = calloc(1, sizeof(*uw));
	struct sim_object *wq;

	if (!uw || !push((void ***)&io->works, &io->nr_works, uw)) {
		free(uw);
		return EEVDF_ENOMEM;
	}
	uw->c = *(const struct work_cfg *)o->u.io.cfg;
	uw->obj = o;
	uw->target = obj_at(sim, uw->c.target);
	eevdf__kwork_init(&uw->work, KW_USER, uw);
	wq = obj_at(sim, uw->c.wq);
	uw->work.wq = wq && wq->type == OBJ_WORKQUEUE && wq->u.io.rt ?
			      wq->u.io.rt :
			      io->system_wq;
	o->u.io.rt = uw;
	return 0;
}

static int add_irq(struct eevdf_sim *sim, struct sim_object *o)
{
	struct io *io = sim->io;
	struct irq_src *s = calloc(1, sizeof(*s));
	struct sim_object *w;

	if (!s || !push((void ***)&io->irqs, &io->nr_irqs, s)) {
		free(s);
		return EEVDF_ENOMEM;
	}
	s->c = *(const struct irq_cfg *)o->u.io.cfg;
	if (s->c.cpu < 0 || s->c.cpu >= sim->sched.nr_cpus)
		s->c.cpu = 0;
	s->target = obj_at(sim, s->c.target);
	w = obj_at(sim, s->c.work);
	if (w && w->type == OBJ_WORK && w->u.io.rt)
		s->work = &((struct user_work *)w->u.io.rt)->work;
	eevdf__event_init(&s->ev, SEV_IRQ_SRC, EVC_TICK);
	o->u.io.rt = s;
	return eevdf__queue_event(&sim->sched, &s->ev,
				  s->c.first > 0 ? s->c.first : s->c.period);
}

/* Build one kind of object, in object order. */
static int add_all(struct eevdf_sim *sim, enum obj_type t,
		   int (*fn)(struct eevdf_sim *, struct sim_object *))
{
	for (size_t i = 0; i < sim->nr_objs; i++) {
		struct sim_object *o = sim->objs[i];
		int r;

		if (o->type != t)
			continue;
		if (!o->u.io.cfg)
			return EEVDF_EINVAL;
		if ((r = fn(sim, o)))
			return r;
	}
	return 0;
}

int eevdf__io_setup(struct eevdf_sim *sim)
{
	struct io *io;
	bool any = false;
	int r;

	for (size_t i = 0; i < sim->nr_objs && !any; i++)
		any = is_io_type(sim->objs[i]->type);
	if (!any || sim->io)
		return 0;
	io = calloc(1, sizeof(*io));
	if (!io)
		return EEVDF_ENOMEM;
	sim->io = io;
	io->cpu = calloc((size_t)sim->sched.nr_cpus, sizeof(*io->cpu));
	if (!io->cpu)
		return EEVDF_ENOMEM;
	if ((r = eevdf__wq_init(sim)))
		return r;
	/* default_bdi_init(): the flushers' unbound workqueue */
	io->writeback = eevdf__wq_alloc(sim, "writeback", NULL, true, false, 0);
	/* ext4_fill_super(): WQ_MEM_RECLAIM | WQ_UNBOUND, max_active 1 */
	io->conversion = eevdf__wq_alloc(sim, "ext4-rsv-conversion", NULL, true,
					 false, 1);
	if (!io->writeback || !io->conversion)
		return EEVDF_ENOMEM;
	if ((r = add_all(sim, OBJ_DEVICE, add_device)) ||
	    (r = add_all(sim, OBJ_WORKQUEUE, add_wq)) ||
	    (r = add_all(sim, OBJ_FILESYSTEM, add_fs)) ||
	    (r = add_all(sim, OBJ_WORK, add_work)) ||
	    (r = add_all(sim, OBJ_IRQ, add_irq)))
		return r;
	/* the settings were the workload's: nothing points there now */
	for (size_t i = 0; i < sim->nr_objs; i++)
		if (is_io_type(sim->objs[i]->type))
			sim->objs[i]->u.io.cfg = NULL;
	return 0;
}

/*
 * The kernel threads a booted machine has: per CPU ksoftirqd/N and the
 * first worker of its two pools; each unbound pool's first worker; a
 * journal thread per file system.
 */
int eevdf__io_start(struct eevdf_sim *sim)
{
	struct io *io = sim->io;
	char name[EEVDF_NAME_MAX];
	int r;

	if (!io || io->started)
		return 0;
	io->started = true;
	for (int c = 0; c < sim->sched.nr_cpus; c++) {
		struct kthread *kt;

		snprintf(name, sizeof(name), "ksoftirqd/%d", c);
		kt = eevdf__kthread_create(sim, KT_KSOFTIRQD, name, 0, &c, 1);
		if (!kt)
			return EEVDF_ENOMEM;
		kt->cpu = c;
		io->cpu[c].ksoftirqd = kt;
	}
	if ((r = eevdf__io_start_workers(sim)))
		return r;
	for (size_t i = 0; i < io->nr_fss; i++) {
		struct fsys *fs = io->fss[i];

		if (!fs->c.journal)
			continue;
		fs->j.kt = eevdf__kthread_create(sim, KT_JBD2, fs->jname, 0,
						 NULL, 0);
		if (!fs->j.kt)
			return EEVDF_ENOMEM;
		fs->j.kt->fs = fs;
	}
	return 0;
}

bool eevdf__io_event_type(u32 type)
{
	return type >= SEV_BLK_DONE && type <= SEV_DEV_IRQ;
}

/* A periodic source fires, and is armed a period after it was due. */
static void irq_src_event(struct eevdf_sim *sim, struct irq_src *s)
{
	eevdf_time due = s->ev.time;

	eevdf__irq_src_fire(sim, s);
	eevdf__queue_event(&sim->sched, &s->ev, due + s->c.period);
}

int eevdf__io_event(struct eevdf_sim *sim, struct eevdf_event *ev)
{
	struct blk_req *req;

	switch ((enum io_event_type)ev->type) {
	case SEV_BLK_DONE:
		eevdf__blk_done(sim, container_of(ev, struct blk_req, ev));
		break;
	case SEV_BLK_IRQ:
		eevdf__blk_irq(sim, container_of(ev, struct blk_req, ev));
		break;
	case SEV_SOFTIRQ:
		/* the completion IPI lands on the submitting CPU */
		req = container_of(ev, struct blk_req, ev);
		eevdf__irq_enter(sim, req->cpu, sim->sched.costs.ipi_recv);
		eevdf__raise_block_softirq(sim, req->cpu, req);
		eevdf__irq_exit(sim, req->cpu);
		break;
	case SEV_IO_TIMER:
		eevdf__kwork_timer(sim, container_of(ev, struct kwork, timer));
		break;
	case SEV_IRQ_SRC:
		irq_src_event(sim, container_of(ev, struct irq_src, ev));
		break;
	case SEV_JBD2_TIMER:
		eevdf__journal_timer(sim,
				     container_of(ev, struct fsys, j.timer));
		break;
	case SEV_DEV_IRQ:
		eevdf__blk_dev_irq(sim,
				   container_of(ev, struct blkdev, irq_ev));
		break;
	}
	if (sim->sched.error)
		return sim->sched.error;
	return eevdf__core_settle(&sim->sched);
}

static void free_reqs(struct blk_req *r)
{
	while (r) {
		struct blk_req *next = r->next;

		free(r);
		r = next;
	}
}

void eevdf__io_free(struct eevdf_sim *sim)
{
	struct io *io = sim->io;

	if (!io)
		return;
	/* requests still in a queue or in a drive's service (the slot a
	 * pop left dead may name a request its handler freed) */
	eevdf__eventq_flush(&sim->sched.evq);
	for (size_t i = 0; i < sim->sched.evq.nr; i++) {
		struct eevdf_event *ev = sim->sched.evq.heap[i].ev;

		if (ev && (ev->type == SEV_BLK_DONE ||
			   ev->type == SEV_BLK_IRQ || ev->type == SEV_SOFTIRQ))
			free(container_of(ev, struct blk_req, ev));
	}
	for (size_t i = 0; i < io->nr_devs; i++) {
		free_reqs(io->devs[i]->irq_head);
		free_reqs(io->devs[i]->q_head);
		free_reqs(io->devs[i]->dq_head);
		free(io->devs[i]->run_work);
		free(io->devs[i]);
	}
	for (int c = 0; c < sim->sched.nr_cpus; c++)
		free_reqs(io->cpu[c].head);
	for (size_t i = 0; i < io->nr_fss; i++) {
		struct fsys *fs = io->fss[i];

		for (size_t k = 0; k < fs->nr_all; k++)
			free_reqs(fs->all[k]->ioend_head);
		eevdf__fs_free(fs);
		free(fs);
	}
	for (size_t i = 0; i < io->nr_fdt; i++) {
		for (u32 k = 0; k < io->fdt[i].n; k++)
			free(io->fdt[i].f[k]);
		free(io->fdt[i].f);
		eevdf__nb_state_free(io->fdt[i].nb);
	}
	for (size_t i = 0; i < io->nr_loads; i++)
		eevdf__nb_load_unref(io->loads[i]);
	free(io->loads);
	for (size_t i = 0; i < io->nr_wqs; i++) {
		free(io->wqs[i]->pwqs);
		free(io->wqs[i]);
	}
	for (size_t i = 0; i < io->nr_pools; i++)
		free(io->pools[i].cpus);
	for (size_t i = 0; i < io->nr_kt; i++)
		free(io->kt[i]);
	for (size_t i = 0; i < io->nr_irqs; i++)
		free(io->irqs[i]);
	for (size_t i = 0; i < io->nr_works; i++)
		free(io->works[i]);
	free(io->fdt);
	free(io->works);
	free(io->irqs);
	free(io->kt);
	free(io->pools);
	free(io->wqs);
	free(io->devs);
	free(io->fss);
	free(io->cpu);
	free(io);
	sim->io = NULL;
}

/* Public statistics ---------------------------------------------------------- */

size_t eevdf_sim_nr_devices(const eevdf_sim *sim)
{
	return sim && sim->io ? sim->io->nr_devs : 0;
}

int eevdf_sim_device_stats(const eevdf_sim *sim, size_t i,
			   struct eevdf_device_stats *out)
{
	const struct blkdev *d;
	const struct io *io;

	if (!sim || !out || !sim->io || i >= sim->io->nr_devs)
		return EEVDF_EINVAL;
	io = sim->io;
	d = io->devs[i];
	memset(out, 0, sizeof(*out));
	out->name = d->obj->name;
	out->preset = d->c.preset;
	out->reads = d->nr_reads;
	out->writes = d->nr_writes;
	out->flushes = d->nr_flushes;
	out->read_bytes = d->read_bytes;
	out->write_bytes = d->write_bytes;
	out->busy_ns = (eevdf_time)d->busy_ns;
	if (d->busy_since >= 0)
		out->busy_ns += sim->sched.now - d->busy_since;
	out->wait_sum_ns = (eevdf_time)d->wait_sum;
	out->wait_max_ns = (eevdf_time)d->wait_max;
	out->completed = d->nr_completed;
	out->max_inflight = d->max_inflight;
	out->restarts = d->nr_restarts;
	out->irqs = d->nr_irqs;
	for (int c = 0; c < sim->sched.nr_cpus; c++)
		out->softirq_deferred += io->cpu[c].nr_deferred;
	return 0;
}

size_t eevdf_sim_nr_filesystems(const eevdf_sim *sim)
{
	return sim && sim->io ? sim->io->nr_fss : 0;
}

int eevdf_sim_fs_stats(const eevdf_sim *sim, size_t i,
		       struct eevdf_fs_stats *out)
{
	const struct fsys *fs;

	if (!sim || !out || !sim->io || i >= sim->io->nr_fss)
		return EEVDF_EINVAL;
	fs = sim->io->fss[i];
	memset(out, 0, sizeof(*out));
	out->name = fs->obj->name;
	out->device = fs->dev->obj->name;
	out->cache_misses = fs->nr_misses;
	out->cache_hits = fs->nr_hits > fs->nr_misses ?
				  fs->nr_hits - fs->nr_misses :
				  0;
	out->evicted = fs->nr_evicted;
	out->written_back = fs->wb.nr_pages_written;
	out->background_passes = fs->wb.nr_background;
	out->kupdate_passes = fs->wb.nr_kupdate;
	out->commits = fs->j.nr_commits;
	out->handle_waits = fs->j.nr_handle_waits;
	out->throttled = fs->nr_throttled;
	out->throttle_ns = (eevdf_time)fs->throttle_ns;
	return 0;
}
