//! Intel's AMX tiles (since Sapphire Rapids), shared by the bf16 and int8 kernels: whether
//! this process may use them, and the one tile configuration every kernel runs with
//! (x86-64 only).

/// Whether the CPU has AMX tiles with the products CPUID leaf 7's EDX bits in `products`
/// name (bit 22 bf16, bit 25 int8), and Linux lets this process use them (both asked once:
/// CPUID traps to the hypervisor in a VM).
pub(crate) fn has_tiles_with(products: u32) -> bool {
    static TILES: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let granted = *TILES.get_or_init(|| {
        // CPUID leaf 7: EDX bit 24 AMX-TILE, and the products beside it.
        let edx = std::arch::x86_64::__cpuid_count(7, 0).edx;
        let tile = 1 << 24;
        if std::arch::is_x86_feature_detected!("avx512f") && edx & tile != 0 && request_tiles() {
            edx
        } else {
            0
        }
    });
    granted & products == products
}

/// Asks Linux for the AMX tile state (`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`);
/// whether it was granted.
fn request_tiles() -> bool {
    const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
    const XFEATURE_XTILEDATA: libc::c_long = 18;
    // SAFETY: a plain system call with integer arguments; it changes only which register
    // state this process may use.
    cfg!(target_os = "linux")
        && unsafe { libc::syscall(libc::SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) } == 0
}

/// Rows of a tile.
pub(crate) const TILE_ROWS: usize = 16;
/// Bytes of a tile's row: 64 bytes, 32 bf16 or 16 f32 or int32 sums.
pub(crate) const TILE_BYTES: usize = 64;

thread_local! {
    /// Whether this thread has loaded the tile configuration.
    static CONFIGURED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The tile configuration every kernel uses: palette 1, tiles 0–7 of 16 rows × 64 bytes.
#[repr(C, align(64))]
struct TileConfig([u8; 64]);

/// Loads the tile configuration on this thread, once (the kernel keeps it across context
/// switches). The CPU must have the tiles, granted to this process ([`has_tiles_with`]).
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn configure() {
    if CONFIGURED.get() {
        return;
    }
    let mut config = TileConfig([0; 64]);
    config.0[0] = 1;
    for tile in 0..8 {
        config.0[16 + 2 * tile] = TILE_BYTES as u8;
        config.0[48 + tile] = TILE_ROWS as u8;
    }
    std::arch::asm!("ldtilecfg [{0}]", in(reg) config.0.as_ptr(), options(nostack, readonly));
    CONFIGURED.set(true);
}

/// Stores the sums of tiles 0 and 1 side by side above those of tiles 2 and 3 (`wide`), or
/// of tile 0 above tile 2: 32 rows of 32 (or 16) four-byte sums at `target`, each row
/// `stride` bytes after the last. The CPU must have the tiles, configured.
#[inline(always)]
pub(crate) unsafe fn store_sums(target: *mut u8, stride: usize, wide: bool) {
    let second = target.add(TILE_ROWS * stride);
    if wide {
        std::arch::asm!(
            "tilestored [{t} + {s}*1], tmm0",
            "tilestored [{t} + {s}*1 + 64], tmm1",
            "tilestored [{t2} + {s}*1], tmm2",
            "tilestored [{t2} + {s}*1 + 64], tmm3",
            t = in(reg) target,
            t2 = in(reg) second,
            s = in(reg) stride,
            options(nostack),
        );
    } else {
        std::arch::asm!(
            "tilestored [{t} + {s}*1], tmm0",
            "tilestored [{t2} + {s}*1], tmm2",
            t = in(reg) target,
            t2 = in(reg) second,
            s = in(reg) stride,
            options(nostack),
        );
    }
}
