//! Which burn device the net runs on, from the `--device` text: `cpu` (the `flex`
//! backend), or a GPU index (`0`, `cuda:0`, `wgpu:0`) in a build with the `cuda` or
//! `wgpu` feature; `wgpu:cpu` is wgpu on a CPU adapter, such as Mesa's software Vulkan
//! driver (lavapipe), which runs burn's GPU kernels where no GPU is
//! (`scripts/gpu-check.sh`).

use burn::tensor::Device;

/// The device `spec` names, or an error saying what this build offers.
pub fn device(spec: &str) -> Result<Device, String> {
    let (backend, index) = match spec.split_once(':') {
        Some((backend, index)) => (backend, index),
        None if spec == "cpu" => return Ok(Device::flex()),
        None => (gpu_backend(), spec),
    };
    let index = match (backend, index) {
        ("wgpu", "cpu") => None,
        _ => Some(index.parse().map_err(|_| format!("bad device `{spec}`: expected cpu or a GPU index"))?),
    };
    gpu(backend, index).ok_or_else(|| {
        format!("device `{spec}` needs a GPU backend: build with `--features cuda` or `--features wgpu`")
    })
}

/// The GPU backend a bare index means: CUDA when built in, else wgpu.
fn gpu_backend() -> &'static str {
    if cfg!(feature = "cuda") {
        "cuda"
    } else {
        "wgpu"
    }
}

/// The GPU device `index` of `backend` (`None`: wgpu's CPU adapter), if this build has
/// that backend.
#[allow(unused_variables)] // without GPU features nothing reads them
fn gpu(backend: &str, index: Option<usize>) -> Option<Device> {
    match backend {
        #[cfg(feature = "cuda")]
        "cuda" => index.map(Device::cuda),
        #[cfg(feature = "wgpu")]
        "wgpu" => {
            Some(Device::wgpu(index.map_or(burn::tensor::DeviceKind::Cpu, burn::tensor::DeviceKind::DiscreteGpu)))
        }
        _ => None,
    }
}
