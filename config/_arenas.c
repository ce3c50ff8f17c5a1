/* config._arenas: keep a few freed blocks of CPython's arena allocator for reuse.
 *
 * CPython 3.11 takes two kinds of memory from the "arena allocator" (mmap and munmap on
 * Linux): obmalloc's 1 MiB arenas, and the 16 KiB chunks of each thread's frame stack. A
 * chunk is unmapped as soon as the call that needed it returns, so a loop whose calls go just
 * past a chunk's end maps and unmaps memory on every call, and every page of the new mapping
 * faults in again (CPython issue gh-142183; 3.13 and 3.14 releases from March 2026 cache one
 * chunk). Django's request path is deep enough to sit on such a boundary: a test of the API
 * spent 15 % of its time in the kernel and far more in page faults (docs/benchmarks.md,
 * "Issue 36").
 *
 * keep() installs an arena allocator that maps memory as CPython's does but keeps up to KEPT
 * freed blocks of at most MAX_KEPT bytes and hands them out again for a request of the same
 * size. Blocks are always whole mappings of their size (mmap'd here or by the allocator this
 * one replaces), so any block can be kept or unmapped, whoever mapped it. CPython calls the
 * arena allocator with the GIL held, except that PyThreadState_Delete may free a thread's
 * chunks without it: the list is guarded by a flag taken with an atomic try, and whoever finds
 * it taken maps or unmaps as CPython would, never waits (so a fork can never leave a child
 * waiting for it; the child's flag is cleared all the same).
 *
 *   keep() -> True once installed (False when it already was)
 *   counts() -> (mapped, reused, unmapped): blocks mapped anew, handed out again and unmapped
 *               since keep()
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdbool.h>
#include <sys/mman.h>

#define KEPT 8
#define MAX_KEPT (1u << 20)

static void *kept_block[KEPT];
static size_t kept_size[KEPT];
static int kept_count = 0;
static bool busy = false; /* __atomic_test_and_set works on a bool */
static int installed = 0;
static unsigned long long mapped = 0, reused = 0, unmapped = 0;

static int take(void) { return !__atomic_test_and_set(&busy, __ATOMIC_ACQUIRE); }
static void give(void) { __atomic_clear(&busy, __ATOMIC_RELEASE); }
static void after_fork_in_child(void) { __atomic_clear(&busy, __ATOMIC_RELEASE); }

static void *arena_alloc(void *ctx, size_t size) {
    (void)ctx;
    if (take()) {
        for (int i = kept_count - 1; i >= 0; i--) {
            if (kept_size[i] == size) {
                void *block = kept_block[i];
                kept_count--;
                kept_block[i] = kept_block[kept_count];
                kept_size[i] = kept_size[kept_count];
                reused++;
                give();
                return block;
            }
        }
        mapped++;
        give();
    }
    void *block = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return block == MAP_FAILED ? NULL : block;
}

static void arena_free(void *ctx, void *block, size_t size) {
    (void)ctx;
    if (block == NULL) {
        return;
    }
    if (size <= MAX_KEPT && take()) {
        if (kept_count < KEPT) {
            kept_block[kept_count] = block;
            kept_size[kept_count] = size;
            kept_count++;
            give();
            return;
        }
        unmapped++;
        give();
    }
    munmap(block, size);
}

static PyObject *keep(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    if (installed) {
        Py_RETURN_FALSE;
    }
    PyObjectArenaAllocator mine = {NULL, arena_alloc, arena_free};
    pthread_atfork(NULL, NULL, after_fork_in_child);
    PyObject_SetArenaAllocator(&mine);
    installed = 1;
    Py_RETURN_TRUE;
}

static PyObject *counts(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return Py_BuildValue("(KKK)", mapped, reused, unmapped);
}

static PyMethodDef methods[] = {
    {"keep", keep, METH_NOARGS, "Install the arena allocator that keeps freed blocks."},
    {"counts", counts, METH_NOARGS, "(mapped, reused, unmapped) blocks since keep()."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "config._arenas", "Freed arena blocks kept for reuse.", -1, methods,
};

PyMODINIT_FUNC PyInit__arenas(void) { return PyModule_Create(&module); }
