//! The process's allocator, tuned for training: glibc's defaults give memory back to the
//! kernel as soon as a large block is freed (each block above the mmap threshold is its
//! own mapping; the heap's top is trimmed), and a training step allocates and frees its
//! activations, megabytes each, dozens of times, so every step faulted its memory in
//! anew: about a quarter of a step's CPU time on 2 cores went to the kernel's page
//! faults (docs/training-speed.md). Kept instead, freed blocks are reused; the process
//! holds on to its peak use. A thread other than the main one allocates from heaps of its
//! own (64 MiB each), and glibc unmaps such a heap whenever all of it is free, whatever the
//! trim threshold: a padding of a whole heap at the top keeps them too (a training step
//! runs on one of rayon's threads, `train::Trainer`).

/// Blocks up to this size come from the heap, not a mapping of their own.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 256 << 20;
/// Free memory at the heap's top kept up to this size.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: i32 = 1 << 30;
/// Free memory kept at the top of every heap, the threads' own included.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TOP_PAD: i32 = 64 << 20;

/// Keeps freed memory for reuse (glibc on Linux; elsewhere nothing changes). Call once,
/// first thing in `main`, before other threads start.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets three of the allocator's parameters; called before any
    // other thread exists, it races with no allocation.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
    }
}
