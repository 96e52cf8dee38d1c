//! A trained net as an ONNX model, so that it runs in ONNX Runtime (on a CPU, a GPU or in
//! a browser through onnxruntime-web) or in any other program that reads ONNX.
//!
//! The graph is the burn net's own, layer by layer ([`crate::nn::model`]): one input,
//! `planes` (`[batch, planes, height, width]`, floats, as [`Encoding::encode`] writes
//! them), and two outputs, `policy` (`[batch, labels]` logits over the game's policy
//! labels) and `value` (`[batch, 3]`: win, draw, loss logits for the side to move).
//! Batch-norms stay `BatchNormalization` nodes in inference mode (ONNX Runtime folds them
//! into the convs itself). Operator set 17. The net's metadata (game, shape, encoding
//! version, provenance) goes into the model's metadata under the keys of its safetensors
//! file.
//!
//! [`Encoding::encode`]: crate::nn::Encoding::encode

mod proto;

use burn::module::Param;
use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};
use burn::tensor::Tensor;
use prost::Message;

use super::flex_data::floats;
use super::model::{ConvBn, Net, PolicyLayers};
use super::NetInfo;
use proto::*;

/// The operator set the graph is written for.
const OPSET: i64 = 17;
/// The ONNX file format version of that operator set.
const IR_VERSION: i64 = 8;
const FLOAT: i32 = 1;
const INT64: i32 = 7;

/// The ONNX model of `net`, whose metadata is `info`, as the bytes of a `.onnx` file.
pub fn model(net: &Net, info: &NetInfo) -> Vec<u8> {
    let config = net.config;
    let mut graph = Graph::default();
    let counts = net.value_counts.as_ref().map(|layer| {
        let means = graph.node("ReduceMean", &["planes"], vec![ints("axes", &[2, 3]), int("keepdims", 0)]);
        graph.linear(layer, &means)
    });
    let mut x = graph.conv_bn(&net.stem, "planes");
    x = graph.node("Relu", &[&x], vec![]);
    for block in &net.blocks {
        let y = graph.conv_bn(&block.first, &x);
        let y = graph.node("Relu", &[&y], vec![]);
        let y = graph.conv_bn(&block.second, &y);
        let sum = graph.node("Add", &[&y, &x], vec![]);
        x = graph.node("Relu", &[&sum], vec![]);
    }
    let policy = match net.policy_layers() {
        PolicyLayers::Dense(conv, fc) => {
            let planes = graph.conv_bn(conv, &x);
            let planes = graph.node("Relu", &[&planes], vec![]);
            let flat = graph.node("Flatten", &[&planes], vec![int("axis", 1)]);
            graph.linear(fc, &flat)
        }
        PolicyLayers::Attention(attention) => {
            let cells = (config.height * config.width) as i64;
            let [dim, ..] = attention.query.weight.dims();
            let rows = graph.constant_ints(&[0, dim as i64, cells]);
            let query = graph.conv(&attention.query, &x);
            let query = graph.node("Reshape", &[&query, &rows], vec![]);
            let query = graph.node("Transpose", &[&query], vec![ints("perm", &[0, 2, 1])]);
            let key = graph.conv(&attention.key, &x);
            let key = graph.node("Reshape", &[&key, &rows], vec![]);
            let scores = graph.node("MatMul", &[&query, &key], vec![]);
            let scale = graph.constant(&[], vec![1.0 / (dim as f32).sqrt()]);
            let scores = graph.node("Mul", &[&scores, &scale], vec![]);
            let flat = graph.node("Flatten", &[&scores], vec![int("axis", 1)]);
            let pairs: Vec<i64> =
                config.label_cells.iter().map(|&(from, to)| i64::from(from) * cells + i64::from(to)).collect();
            let pairs = graph.constant_ints(&pairs);
            graph.node("Gather", &[&flat, &pairs], vec![int("axis", 1)])
        }
    };
    let value = graph.conv_bn(&net.value_conv, &x);
    let value = graph.node("Relu", &[&value], vec![]);
    let value = graph.node("Flatten", &[&value], vec![int("axis", 1)]);
    let hidden = graph.linear(&net.value_fc1, &value);
    let hidden = graph.node("Relu", &[&hidden], vec![]);
    let mut value = graph.linear(&net.value_fc2, &hidden);
    if let Some(counts) = counts {
        value = graph.node("Add", &[&value, &counts], vec![]);
    }
    graph.rename(&policy, "policy");
    graph.rename(&value, "value");
    let dims = |rest: &[usize]| {
        std::iter::once(Dimension { dim_param: Some("batch".to_string()), dim_value: None })
            .chain(rest.iter().map(|&size| Dimension { dim_value: Some(size as i64), dim_param: None }))
            .collect()
    };
    let input = tensor_info(
        "planes",
        dims(&[config.planes, config.height, config.width]),
        "the encoded positions, one per batch row",
    );
    let outputs = vec![
        tensor_info("policy", dims(&[config.policy_size]), "logits over the game's policy labels"),
        tensor_info("value", dims(&[3]), "win, draw and loss logits for the side to move"),
    ];
    let model = ModelProto {
        ir_version: IR_VERSION,
        opset_import: vec![OperatorSetIdProto { domain: String::new(), version: OPSET }],
        producer_name: "xiangqi-zero".to_string(),
        producer_version: env!("CARGO_PKG_VERSION").to_string(),
        doc_string: format!("{config}"),
        graph: Some(GraphProto {
            node: graph.nodes,
            name: config.game.to_string(),
            initializer: graph.weights,
            input: vec![input],
            output: outputs,
        }),
        metadata_props: info
            .metadata()
            .into_iter()
            .map(|(key, value)| StringStringEntryProto { key: key.to_string(), value })
            .collect(),
    };
    model.encode_to_vec()
}

/// The nodes and weights written so far; values are named `v1`, `v2`, … and weights
/// `w1`, `w2`, … in order.
#[derive(Default)]
struct Graph {
    nodes: Vec<NodeProto>,
    weights: Vec<TensorProto>,
}

impl Graph {
    /// Adds node `op` on `inputs` and returns the name of its one output.
    fn node(&mut self, op: &str, inputs: &[&str], attribute: Vec<AttributeProto>) -> String {
        let output = format!("v{}", self.nodes.len() + 1);
        self.nodes.push(NodeProto {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: vec![output.clone()],
            name: format!("{op}{}", self.nodes.len() + 1),
            op_type: op.to_string(),
            attribute,
        });
        output
    }

    /// Names the output `from` of the last node that wrote it `to`.
    fn rename(&mut self, from: &str, to: &str) {
        let node = self.nodes.iter_mut().rev().find(|n| n.output[0] == from).expect("a node wrote it");
        node.output[0] = to.to_string();
    }

    /// A float weight of shape `dims`, by name.
    fn constant(&mut self, dims: &[usize], values: Vec<f32>) -> String {
        let name = format!("w{}", self.weights.len() + 1);
        let dims = dims.iter().map(|&d| d as i64).collect();
        self.weights.push(TensorProto {
            dims,
            data_type: FLOAT,
            float_data: values,
            name: name.clone(),
            ..Default::default()
        });
        name
    }

    /// A one-dimensional int64 weight, by name.
    fn constant_ints(&mut self, values: &[i64]) -> String {
        let name = format!("w{}", self.weights.len() + 1);
        let dims = vec![values.len() as i64];
        self.weights.push(TensorProto {
            dims,
            data_type: INT64,
            int64_data: values.to_vec(),
            name: name.clone(),
            ..Default::default()
        });
        name
    }

    /// `param`'s values under a new weight's name.
    fn param<const D: usize>(&mut self, param: &Param<Tensor<D>>) -> String {
        let value = param.val();
        self.constant(&value.dims(), floats(value))
    }

    /// `conv` (with its bias, if it has one) on `x`, padded to keep the board's size.
    fn conv(&mut self, conv: &Conv2d, x: &str) -> String {
        let [_, _, kh, kw] = conv.weight.val().dims();
        let weight = self.param(&conv.weight);
        let bias = conv.bias.as_ref().map(|bias| self.param(bias));
        let mut inputs = vec![x, &weight];
        inputs.extend(bias.as_deref());
        let (ph, pw) = (kh as i64 / 2, kw as i64 / 2);
        let attributes = vec![ints("kernel_shape", &[kh as i64, kw as i64]), ints("pads", &[ph, pw, ph, pw])];
        self.node("Conv", &inputs, attributes)
    }

    /// `layer`'s conv then its batch-norm (inference mode), on `x`.
    fn conv_bn(&mut self, layer: &ConvBn, x: &str) -> String {
        let y = self.conv(&layer.conv, x);
        self.batch_norm(&layer.bn, &y)
    }

    fn batch_norm(&mut self, bn: &BatchNorm, x: &str) -> String {
        let gamma = self.param(&bn.gamma);
        let beta = self.param(&bn.beta);
        let mean = bn.running_mean.value();
        let mean = self.constant(&mean.dims(), floats(mean));
        let var = bn.running_var.value();
        let var = self.constant(&var.dims(), floats(var));
        self.node("BatchNormalization", &[x, &gamma, &beta, &mean, &var], vec![float("epsilon", bn.epsilon as f32)])
    }

    /// `layer` on the rows of `x` (burn keeps its weight as `[inputs, outputs]`).
    fn linear(&mut self, layer: &Linear, x: &str) -> String {
        let weight = self.param(&layer.weight);
        let mut inputs = vec![x, &weight];
        let bias = layer.bias.as_ref().map(|bias| self.param(bias));
        inputs.extend(bias.as_deref());
        self.node("Gemm", &inputs, vec![])
    }
}

fn int(name: &str, i: i64) -> AttributeProto {
    AttributeProto { name: name.to_string(), r#type: 2, i, ..Default::default() }
}

fn ints(name: &str, values: &[i64]) -> AttributeProto {
    AttributeProto { name: name.to_string(), r#type: 7, ints: values.to_vec(), ..Default::default() }
}

fn float(name: &str, f: f32) -> AttributeProto {
    AttributeProto { name: name.to_string(), r#type: 1, f, ..Default::default() }
}

fn tensor_info(name: &str, dim: Vec<Dimension>, doc: &str) -> ValueInfoProto {
    let tensor_type = TensorTypeProto { elem_type: FLOAT, shape: Some(TensorShapeProto { dim }) };
    ValueInfoProto {
        name: name.to_string(),
        r#type: Some(TypeProto { tensor_type: Some(tensor_type) }),
        doc_string: doc.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use burn::module::Module;
    use burn::tensor::Device;

    use super::*;
    use crate::game::xiangqi::Xiangqi;
    use crate::nn::{NetConfig, PolicyHead, Provenance};

    /// Decodes the model of a random net of each head and checks that its weights are the
    /// net's, all of them, and that its inputs, outputs and metadata are named as the
    /// module says.
    #[test]
    fn the_model_holds_every_weight_and_names_its_inputs_and_outputs() {
        for head in [PolicyHead::Dense, PolicyHead::Attention] {
            let config = NetConfig::new::<Xiangqi>(2, 8).with_policy_head(head).with_count_value(true);
            let net = Net::new(config, &Device::flex());
            let info = NetInfo::new(config, Provenance { generation: Some(7), ..Provenance::default() });
            let model = ModelProto::decode(model(&net, &info).as_slice()).unwrap();
            let graph = model.graph.unwrap();
            let floats: usize = graph.initializer.iter().map(|t| t.float_data.len()).sum();
            // burn counts batch-norms' running statistics as parameters too; the attention
            // head adds its scale, 1/√dim.
            assert_eq!(floats, net.num_params() + usize::from(head == PolicyHead::Attention));
            let names = |values: &[ValueInfoProto]| values.iter().map(|v| v.name.clone()).collect::<Vec<_>>();
            assert_eq!(
                (names(&graph.input), names(&graph.output)),
                (vec!["planes".into()], vec!["policy".into(), "value".into()])
            );
            let outputs: Vec<&str> = graph.node.iter().map(|n| n.output[0].as_str()).collect();
            assert!(outputs.contains(&"policy") && outputs.contains(&"value"));
            let generation = model.metadata_props.iter().find(|p| p.key == "xiangqi-zero.generation").unwrap();
            assert_eq!(generation.value, "7");
        }
    }
}
