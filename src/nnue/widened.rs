//! One function compiled three times — for AVX-512, for AVX2 and for any CPU — and chosen
//! at run time by what the CPU has: the plain loops of the accumulator and of the net's
//! layers after it, which the compiler vectorizes as wide as it is allowed.

/// Defines `fn $name(args) [-> ret]` that runs `$plain(args)` (an `#[inline(always)]`
/// function) compiled with AVX-512BW where the CPU has it, else with AVX2, else as is.
macro_rules! widened {
    ($(#[$doc:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? = $plain:path;) => {
        $(#[$doc])*
        #[inline]
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512bw")]
                unsafe fn avx512($($arg: $ty),*) $(-> $ret)? {
                    $plain($($arg),*)
                }
                #[target_feature(enable = "avx2")]
                unsafe fn avx2($($arg: $ty),*) $(-> $ret)? {
                    $plain($($arg),*)
                }
                if std::arch::is_x86_feature_detected!("avx512bw") {
                    // SAFETY: the CPU has the features the function is compiled for.
                    return unsafe { avx512($($arg),*) };
                }
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: as above.
                    return unsafe { avx2($($arg),*) };
                }
            }
            $plain($($arg),*)
        }
    };
}

pub(crate) use widened;
