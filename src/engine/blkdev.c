/* SPDX-License-Identifier: MIT */
/*
 * Block devices after block/blk-mq.c: scheduler tags (nr_requests; a
 * submitter without one sleeps in blk_mq_get_tag()), driver tags (the
 * drive's queue depth; a request without one waits in the scheduler and
 * the queue is marked SCHED_RESTART, so that a completion runs it again
 * from kblockd, blk_mq_sched_restart()), and completion:
 * blk_mq_complete_request_remote() completes in the hard interrupt when
 * the request was submitted from this CPU's hardware queue (NVMe's
 * per-CPU queues), sends an IPI to the submitting CPU when it does not
 * share this CPU's cache (QUEUE_FLAG_SAME_COMP, rq_affinity 1), and
 * otherwise, on a single-queue device, raises BLOCK_SOFTIRQ here.
 *
 * The drive: up to `parallel` requests in their access latency at once
 * (flash channels; one head for a disk), then one link that moves the
 * data at the drive's bandwidth, in start order.  A disk's latency is a
 * seek and rotation unless the request starts where the last one ended.
 * docs/io-model.md gives the presets and their sources.
 */
#include <string.h>

#include "io.h"

#define KB 1024u
#define MBPS(x) ((u64)(x)*1000000u)

static void lat_const(struct eevdf_dist *d, s64 ns)
{
	eevdf__dist_init_const(d, ns);
}

/* A service time: never negative (every draw is clamped to the
 * distribution's range, which a zeroed one has as [0, 0]). */
static void lat_range(struct eevdf_dist *d)
{
	eevdf__dist_set_range(d, 0, INT64_MAX);
}

static void lat_lognormal(struct eevdf_dist *d, s64 median, double sigma)
{
	memset(d, 0, sizeof(*d));
	d->kind = EEVDF_DIST_LOGNORMAL;
	d->median = (double)median;
	d->sigma = sigma;
	d->has_max = true;
	d->max = 20 * median;
	lat_range(d);
}

bool eevdf__blkdev_preset(const char *name, struct dev_cfg *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->preset, sizeof(c->preset), "%s", name);
	c->major = 8;
	if (strcmp(name, "nvme") == 0) {
		/* a PCIe 3.0 x4 TLC drive (970 EVO class): 1024-entry
		 * queues, reads ~80 us, writes land in its SLC cache */
		c->queue_depth = 1023;
		c->nr_requests = 1023;
		c->parallel = 32;
		lat_lognormal(&c->rlat, 80000, 0.25);
		lat_lognormal(&c->wlat, 20000, 0.25);
		c->read_bw = MBPS(3400);
		c->write_bw = MBPS(2500);
		c->flush_lat = 300000;
		c->multiqueue = true;
		c->major = 259;
	} else if (strcmp(name, "sata-ssd") == 0) {
		/* AHCI with NCQ (32 tags; mq-deadline gives twice as many
		 * scheduler tags), SATA 3 link */
		c->queue_depth = 32;
		c->nr_requests = 64;
		c->parallel = 8;
		lat_lognormal(&c->rlat, 90000, 0.3);
		lat_lognormal(&c->wlat, 45000, 0.3);
		c->read_bw = MBPS(550);
		c->write_bw = MBPS(520);
		c->flush_lat = 1000000;
	} else if (strcmp(name, "hdd") == 0) {
		/* 7200 rpm: 8.5 ms average seek plus 4.17 ms half turn */
		c->queue_depth = 32;
		c->nr_requests = 64;
		c->parallel = 1;
		memset(&c->rlat, 0, sizeof(c->rlat));
		c->rlat.kind = EEVDF_DIST_NORMAL;
		c->rlat.mean = 12.7e6;
		c->rlat.stddev = 4e6;
		c->rlat.has_min = c->rlat.has_max = true;
		c->rlat.min = 2000000;
		c->rlat.max = 30000000;
		lat_range(&c->rlat);
		c->wlat = c->rlat;
		c->seek = true;
		c->seq_lat = 50000;
		c->read_bw = MBPS(180);
		c->write_bw = MBPS(180);
		c->flush_lat = 10000000;
	} else if (strcmp(name, "none") == 0) {
		c->none = true;
		c->queue_depth = 1;
		c->nr_requests = 1;
		c->parallel = 1;
		lat_const(&c->rlat, 0);
		lat_const(&c->wlat, 0);
		c->read_bw = c->write_bw = MBPS(1);
	} else {
		return false;
	}
	return true;
}

const char *eevdf__blkdev_presets(void)
{
	return "nvme, sata-ssd, hdd, none";
}

void eevdf__blkdev_init(struct blkdev *d, u64 seed)
{
	char key[EEVDF_NAME_MAX + 8];

	snprintf(key, sizeof(key), "device:%s", d->obj->name);
	eevdf__rng_seed(&d->rng, seed, key, EEVDF_RNG_BEHAVIOUR);
	d->busy_since = -1;
}

struct blk_req *eevdf__blk_alloc(struct eevdf_sim *sim, struct blkdev *d,
				 enum req_op op, u64 lba, u32 pages)
{
	struct blk_req *req = calloc(1, sizeof(*req));

	if (!req) {
		eevdf__sim_fail(sim, EEVDF_ENOMEM, "out of memory");
		return NULL;
	}
	eevdf__event_init(&req->ev, SEV_BLK_DONE, EVC_TICK);
	req->dev = d;
	req->op = op;
	req->lba = lba;
	req->pages = pages;
	return req;
}

/* The drive starts req's access: its latency, then its transfer. */
static void service(struct eevdf_sim *sim, struct blkdev *d,
		    struct blk_req *req)
{
	bool rd = req->op == REQ_READ;
	u64 bytes = (u64)req->pages * PAGE_BYTES,
	    bw = rd ? d->c.read_bw : d->c.write_bw;
	s64 lat;
	eevdf_time t, done;

	d->in_service++;
	if (d->c.seek && req->lba == d->last_end)
		lat = (s64)d->c.seq_lat;
	else
		lat = eevdf__dist_sample(rd ? &d->c.rlat : &d->c.wlat, &d->rng);
	if (lat < 0)
		lat = 0;
	if (req->flush)
		lat += (s64)d->c.flush_lat;
	d->last_end = req->lba + req->pages;
	t = sim->sched.now + lat;
	if (t < d->chan_free)
		t = d->chan_free;
	done = t + (eevdf_time)(bw ? (bytes * 1000000000u + bw - 1) / bw : 0);
	d->chan_free = done;
	req->started = sim->sched.now;
	if (d->busy_since < 0)
		d->busy_since = sim->sched.now;
	req->ev.type = SEV_BLK_DONE;
	eevdf__queue_event(&sim->sched, &req->ev, done);
}

static void to_drive(struct eevdf_sim *sim, struct blkdev *d,
		     struct blk_req *req)
{
	d->inflight++;
	req->driver_tag = true;
	if (d->inflight > d->max_inflight)
		d->max_inflight = d->inflight;
	if (d->in_service < d->c.parallel) {
		service(sim, d, req);
		return;
	}
	req->next = NULL;
	if (d->dq_tail)
		d->dq_tail->next = req;
	else
		d->dq_head = req;
	d->dq_tail = req;
}

/* __blk_mq_sched_dispatch_requests(): as many as there are driver tags. */
static u32 dispatch(struct eevdf_sim *sim, struct blkdev *d)
{
	u32 n = 0;

	while (d->q_head && d->inflight < d->c.queue_depth) {
		struct blk_req *req = d->q_head;

		d->q_head = req->next;
		if (!d->q_head)
			d->q_tail = NULL;
		to_drive(sim, d, req);
		n++;
	}
	if (d->q_head)
		d->restart = true; /* SCHED_RESTART */
	return n;
}

int eevdf__blk_submit(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		      struct blk_req *req)
{
	struct blkdev *d = req->dev;

	(void)rq;
	if (!req->sched_tag) {
		d->sched_used++;
		req->sched_tag = true;
	}
	req->submitted = sim->sched.now;
	req->cpu = p ? p->cpu : 0;
	if (req->op == REQ_READ) {
		d->nr_reads++;
		d->read_bytes += (u64)req->pages * PAGE_BYTES;
	} else {
		d->nr_writes++;
		d->write_bytes += (u64)req->pages * PAGE_BYTES;
	}
	if (req->flush)
		d->nr_flushes++;
	req->next = NULL;
	if (d->q_tail)
		d->q_tail->next = req;
	else
		d->q_head = req;
	d->q_tail = req;
	dispatch(sim, d);
	return R_NEXT;
}

/* The drive is done with req: its next waiting request starts. */
void eevdf__blk_done(struct eevdf_sim *sim, struct blk_req *req)
{
	struct blkdev *d = req->dev;
	int cpu = d->c.multiqueue ? req->cpu : d->c.irq_cpu;

	d->in_service--;
	if (d->dq_head) {
		struct blk_req *next = d->dq_head;

		d->dq_head = next->next;
		if (!d->dq_head)
			d->dq_tail = NULL;
		service(sim, d, next);
	}
	if (!d->in_service && d->busy_since >= 0) {
		d->busy_ns += (u64)(sim->sched.now - d->busy_since);
		d->busy_since = -1;
	}
	if (!d->c.multiqueue) {
		/*
		 * One interrupt line: the handler completes every command
		 * done by the time it runs (ahci_handle_port_interrupt()
		 * reads them all from SActive), so completions that finish
		 * before the interrupt is taken share it.
		 */
		req->next = NULL;
		if (d->irq_tail)
			d->irq_tail->next = req;
		else
			d->irq_head = req;
		d->irq_tail = req;
		if (!eevdf__event_queued(&d->irq_ev)) {
			eevdf_time at = sim->sched.now;

			if (eevdf__cpu_idle_long(sim, cpu)) {
				at += (eevdf_time)sim->sched.costs.idle_exit;
				sim->sched.rqs[cpu].awake_at = at;
			}
			eevdf__queue_event(&sim->sched, &d->irq_ev, at);
		}
		return;
	}
	/* an idle CPU leaves its idle state before the handler runs */
	if (eevdf__cpu_idle_long(sim, cpu)) {
		req->ev.type = SEV_BLK_IRQ;
		eevdf__queue_event(
			&sim->sched, &req->ev,
			sim->sched.now +
				(eevdf_time)sim->sched.costs.idle_exit);
		sim->sched.rqs[cpu].awake_at =
			sim->sched.now + (eevdf_time)sim->sched.costs.idle_exit;
		return;
	}
	eevdf__blk_irq(sim, req);
}

void eevdf__blk_irq(struct eevdf_sim *sim, struct blk_req *req)
{
	struct blkdev *d = req->dev;
	int cpu = d->c.multiqueue ? req->cpu : d->c.irq_cpu;

	d->nr_irqs++;
	eevdf__irq_enter(sim, cpu, sim->sched.costs.irq_entry);
	if (d->c.multiqueue && cpu == req->cpu) {
		/* one CPU per hardware queue: done in the handler */
		sim->io->irq_cost += sim->sched.costs.blk_complete;
		eevdf__blk_complete(sim, cpu, req);
	} else if (!cpus_share_cache(&sim->sched.topo, cpu, req->cpu)) {
		/* blk_mq_complete_send_ipi() to the submitting CPU */
		sim->io->irq_cost += sim->sched.costs.ttwu_remote;
		req->ev.type = SEV_SOFTIRQ;
		eevdf__queue_event(&sim->sched, &req->ev,
				   sim->sched.now +
					   (eevdf_time)sim->sched.costs.ipi);
	} else {
		eevdf__raise_block_softirq(sim, cpu, req);
	}
	eevdf__irq_exit(sim, cpu);
}

void eevdf__blk_dev_irq(struct eevdf_sim *sim, struct blkdev *d)
{
	int cpu = d->c.irq_cpu;

	d->nr_irqs++;
	eevdf__irq_enter(sim, cpu, sim->sched.costs.irq_entry);
	while (d->irq_head) {
		struct blk_req *req = d->irq_head;

		d->irq_head = req->next;
		if (!d->irq_head)
			d->irq_tail = NULL;
		if (!cpus_share_cache(&sim->sched.topo, cpu, req->cpu)) {
			/* blk_mq_complete_send_ipi() to the submitting CPU */
			sim->io->irq_cost += sim->sched.costs.ttwu_remote;
			req->ev.type = SEV_SOFTIRQ;
			eevdf__queue_event(
				&sim->sched, &req->ev,
				sim->sched.now +
					(eevdf_time)sim->sched.costs.ipi);
		} else {
			eevdf__raise_block_softirq(sim, cpu, req);
		}
	}
	eevdf__irq_exit(sim, cpu);
}

/* blk_mq_hctx_next_cpu(): a single queue's async runs go round the CPUs
 * in batches of BLK_MQ_CPU_WORK_BATCH (8). */
static int next_cpu(struct eevdf_sim *sim, struct blkdev *d)
{
	if (--d->next_cpu_batch <= 0) {
		d->next_cpu = (d->next_cpu + 1) % sim->sched.nr_cpus;
		d->next_cpu_batch = 8;
	}
	return d->next_cpu;
}

void eevdf__blk_complete(struct eevdf_sim *sim, int cpu, struct blk_req *req)
{
	struct blkdev *d = req->dev;
	u64 wait = (u64)(sim->sched.now - req->submitted);
	struct task *w;

	d->nr_completed++;
	d->wait_sum += wait;
	if (wait > d->wait_max)
		d->wait_max = wait;
	if (req->driver_tag)
		d->inflight--;
	if (req->sched_tag)
		d->sched_used--;
	/* blk_mq_put_tag(): sbitmap wakes a sleeper for the freed tag */
	if ((w = eevdf__waitq_pop(&d->tag_wait)))
		eevdf__interp_wake(sim, sim->io->current, w);
	/* blk_mq_sched_restart(): run the queue again, from kblockd */
	if (d->restart && d->q_head) {
		int c = d->c.multiqueue ? req->cpu : next_cpu(sim, d);
		struct kwork *rw = &d->run_work[d->c.multiqueue ? c : 0];

		d->restart = false;
		d->nr_restarts++;
		eevdf__queue_work(sim, sim->io->kblockd, rw, c);
	}
	switch (req->end) {
	case END_READ:
		eevdf__read_done(sim, req);
		break;
	case END_WRITEBACK:
		if (eevdf__writeback_done(sim, cpu, req))
			return; /* its io_end waits for the conversion */
		break;
	case END_JOURNAL:
		eevdf__journal_io_done(sim, req);
		break;
	}
	free(req);
}

u32 eevdf__blk_run_queue(struct eevdf_sim *sim, struct blkdev *d, int cpu)
{
	(void)cpu;
	return dispatch(sim, d);
}

/* A tag for a new request: taken (R_NEXT), or p sleeps until a request
 * completes (blk_mq_get_tag()'s io_schedule()). */
int eevdf__blk_get_tag(struct eevdf_sim *sim, struct rq *rq, struct task *p,
		       struct blkdev *d)
{
	if (d->sched_used < d->c.nr_requests) {
		d->sched_used++;
		return R_NEXT;
	}
	return eevdf__interp_block(sim, rq, p, WAIT_TAG, &d->tag_wait, 0);
}
