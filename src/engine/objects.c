/* SPDX-License-Identifier: MIT */
/* Wait queues and object lifetime; the object semantics live in program.c. */
#include <string.h>

#include "objects.h"
#include "sched/sched.h"

void eevdf__waitq_push(struct waitq *q, struct task *p)
{
	p->wait_next = NULL;
	if (q->tail)
		q->tail->wait_next = p;
	else
		q->head = p;
	q->tail = p;
	q->nr++;
}

struct task *eevdf__waitq_pop(struct waitq *q)
{
	struct task *p = q->head;

	if (!p)
		return NULL;
	q->head = p->wait_next;
	if (!q->head)
		q->tail = NULL;
	p->wait_next = NULL;
	q->nr--;
	return p;
}

bool eevdf__waitq_remove(struct waitq *q, struct task *p)
{
	struct task *prev = NULL;

	for (struct task *t = q->head; t; prev = t, t = t->wait_next) {
		if (t != p)
			continue;
		if (prev)
			prev->wait_next = t->wait_next;
		else
			q->head = t->wait_next;
		if (q->tail == t)
			q->tail = prev;
		t->wait_next = NULL;
		q->nr--;
		return true;
	}
	return false;
}

const char *eevdf__obj_type_name(enum obj_type t)
{
	switch (t) {
	case OBJ_CHANNEL:
		return "channel";
	case OBJ_SEM:
		return "sem";
	case OBJ_LATCH:
		return "latch";
	case OBJ_EVENT:
		return "event";
	case OBJ_MUTEX:
		return "mutex";
	case OBJ_SPINLOCK:
		return "spinlock";
	case OBJ_BARRIER:
		return "barrier";
	case OBJ_LIST:
		return "list";
	case OBJ_TIMER:
		return "timer";
	case OBJ_DEVICE:
		return "device";
	case OBJ_FILESYSTEM:
		return "filesystem";
	case OBJ_WORKQUEUE:
		return "workqueue";
	case OBJ_WORK:
		return "work";
	case OBJ_IRQ:
		return "irq";
	}
	return "object";
}

const char *eevdf__wait_kind_name(enum wait_kind k)
{
	switch (k) {
	case WAIT_NONE:
		return "nothing";
	case WAIT_SLEEP:
		return "a timer";
	case WAIT_SEM:
		return "wait on sem";
	case WAIT_LATCH:
		return "wait on latch";
	case WAIT_EVENT:
		return "block on event";
	case WAIT_MUTEX:
		return "lock of mutex";
	case WAIT_BARRIER:
		return "barrier";
	case WAIT_CHAN_READ:
		return "recv on channel";
	case WAIT_CHAN_WRITE:
		return "send on channel";
	case WAIT_JOIN:
		return "join";
	case WAIT_IO:
		return "I/O";
	case WAIT_RWSEM:
		return "i_rwsem";
	case WAIT_TAG:
		return "a request tag";
	case WAIT_JOURNAL:
		return "the journal";
	case WAIT_WORK:
		return "work";
	}
	return "?";
}

void eevdf__object_free(struct sim_object *o)
{
	if (!o)
		return;
	switch (o->type) {
	case OBJ_CHANNEL:
		free(o->u.chan.msgs);
		break;
	case OBJ_SPINLOCK:
		free(o->u.spin.owner);
		free(o->u.spin.spinners);
		break;
	case OBJ_LIST:
		free(o->u.list.members);
		break;
	case OBJ_SEM:
	case OBJ_LATCH:
	case OBJ_EVENT:
	case OBJ_MUTEX:
	case OBJ_BARRIER:
	case OBJ_TIMER:
	case OBJ_DEVICE:
	case OBJ_FILESYSTEM:
	case OBJ_WORKQUEUE:
	case OBJ_WORK:
	case OBJ_IRQ:
		/* an I/O object's state belongs to the I/O model (io.c) */
		break;
	}
	free(o->name);
	memset(o, 0, sizeof(*o));
}
