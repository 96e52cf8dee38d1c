//! The messages of ONNX's `onnx.proto` that a net's file needs, with their field numbers,
//! encoded by prost (so no protobuf compiler at build time). Fields left out are ones
//! our graphs never set.

use prost::Message;

/// A whole model: the graph, the operator set it is written for and its metadata.
#[derive(Clone, PartialEq, Message)]
pub struct ModelProto {
    /// The file format's version.
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// The operator sets the graph's nodes come from.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
    /// The program that wrote the file.
    #[prost(string, tag = "2")]
    pub producer_name: String,
    /// Its version.
    #[prost(string, tag = "3")]
    pub producer_version: String,
    /// What the model is, in words.
    #[prost(string, tag = "6")]
    pub doc_string: String,
    /// The computation.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// Free key-value metadata.
    #[prost(message, repeated, tag = "14")]
    pub metadata_props: Vec<StringStringEntryProto>,
}

/// An operator set and its version.
#[derive(Clone, PartialEq, Message)]
pub struct OperatorSetIdProto {
    /// Empty for the default ONNX domain.
    #[prost(string, tag = "1")]
    pub domain: String,
    /// The operator set's version.
    #[prost(int64, tag = "2")]
    pub version: i64,
}

/// One key-value pair of metadata.
#[derive(Clone, PartialEq, Message)]
pub struct StringStringEntryProto {
    /// The key.
    #[prost(string, tag = "1")]
    pub key: String,
    /// The value.
    #[prost(string, tag = "2")]
    pub value: String,
}

/// A graph: nodes in topological order, the weights, the inputs and outputs.
#[derive(Clone, PartialEq, Message)]
pub struct GraphProto {
    /// The nodes.
    #[prost(message, repeated, tag = "1")]
    pub node: Vec<NodeProto>,
    /// The graph's name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// The constant tensors (weights).
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
    /// The graph's inputs.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// The graph's outputs.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
}

/// One operator applied to named values.
#[derive(Clone, PartialEq, Message)]
pub struct NodeProto {
    /// The names of its inputs.
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    /// The names of its outputs.
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    /// The node's name.
    #[prost(string, tag = "3")]
    pub name: String,
    /// The operator (`Conv`, `Relu`, …).
    #[prost(string, tag = "4")]
    pub op_type: String,
    /// Its attributes.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
}

/// An attribute of a node: an int, a float or a list of ints here.
#[derive(Clone, PartialEq, Message)]
pub struct AttributeProto {
    /// The attribute's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Which of the value fields holds it: 1 float, 2 int, 7 ints.
    #[prost(int32, tag = "20")]
    pub r#type: i32,
    /// A float value.
    #[prost(float, tag = "2")]
    pub f: f32,
    /// An int value.
    #[prost(int64, tag = "3")]
    pub i: i64,
    /// A list of ints.
    #[prost(int64, repeated, tag = "8")]
    pub ints: Vec<i64>,
}

/// A constant tensor.
#[derive(Clone, PartialEq, Message)]
pub struct TensorProto {
    /// Its shape.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// Its element type: 1 float, 7 int64.
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// Float elements, row-major.
    #[prost(float, repeated, tag = "4")]
    pub float_data: Vec<f32>,
    /// Int64 elements, row-major.
    #[prost(int64, repeated, tag = "7")]
    pub int64_data: Vec<i64>,
    /// Its name, by which nodes take it as input.
    #[prost(string, tag = "8")]
    pub name: String,
}

/// A graph input's or output's name and type.
#[derive(Clone, PartialEq, Message)]
pub struct ValueInfoProto {
    /// The value's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Its type.
    #[prost(message, optional, tag = "2")]
    pub r#type: Option<TypeProto>,
    /// What it is, in words.
    #[prost(string, tag = "3")]
    pub doc_string: String,
}

/// A value's type: always a tensor here.
#[derive(Clone, PartialEq, Message)]
pub struct TypeProto {
    /// The tensor type.
    #[prost(message, optional, tag = "1")]
    pub tensor_type: Option<TensorTypeProto>,
}

/// A tensor's element type and shape.
#[derive(Clone, PartialEq, Message)]
pub struct TensorTypeProto {
    /// The element type: 1 float.
    #[prost(int32, tag = "1")]
    pub elem_type: i32,
    /// The shape.
    #[prost(message, optional, tag = "2")]
    pub shape: Option<TensorShapeProto>,
}

/// A shape, dimension by dimension.
#[derive(Clone, PartialEq, Message)]
pub struct TensorShapeProto {
    /// The dimensions.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<Dimension>,
}

/// One dimension: a fixed size or a named, free one (the batch).
#[derive(Clone, PartialEq, Message)]
pub struct Dimension {
    /// A fixed size.
    #[prost(int64, optional, tag = "1")]
    pub dim_value: Option<i64>,
    /// The name of a free size.
    #[prost(string, optional, tag = "2")]
    pub dim_param: Option<String>,
}
