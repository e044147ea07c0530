#pragma once
// What py_device.cpp (DeviceArray, results) and py_import.cpp (arrays handed in) share about
// element types: one table of their names in NumPy, the array interfaces' typestr and DLPack, and
// the text of a shape. Internal to the module.

#include <dlpack.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "py_device.hpp"

namespace cineflow::python {

struct ElementInfo {
  Element element;
  const char* name;
  const char* typestr;  // the array interfaces' typestr
  DLDataType dlpack;
  std::size_t size;
};

inline constexpr std::array<ElementInfo, 4> kElements = {{
    {Element::Float32, "float32", "<f4", {kDLFloat, 32, 1}, 4},
    {Element::Int16, "int16", "<i2", {kDLInt, 16, 1}, 2},
    {Element::UInt16, "uint16", "<u2", {kDLUInt, 16, 1}, 2},
    {Element::Complex64, "complex64", "<c8", {kDLComplex, 64, 1}, 8},
}};

inline const ElementInfo& infoOf(Element element) {
  return kElements[static_cast<std::size_t>(element)];
}

inline std::string namesOf(std::initializer_list<Element> elements) {
  std::string names;
  for (const Element element : elements) {
    names += (names.empty() ? "" : " or ") + std::string(nameOf(element));
  }
  return names;
}

// "(3, 128, 2240)"; "(5,)" for one axis.
inline std::string textOf(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace cineflow::python
