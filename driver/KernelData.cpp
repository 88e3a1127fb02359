#include "driver/KernelData.h"

#include <algorithm>
#include <cmath>
#include <istream>
#include <ostream>
#include <random>

#include <unistd.h>

#include <fmt/format.h>

namespace mcl::driver {

using interpret::Scalar;
using mcpl::Primitive;

namespace {

Scalar cell_value(Primitive p, double v) {
    switch (p) {
    case Primitive::Float: return Scalar::of_float(v);
    case Primitive::Double: return Scalar::of_double(v);
    case Primitive::Bool: return Scalar::of_bool(v != 0);
    case Primitive::Byte: return Scalar{Primitive::Byte, static_cast<int64_t>(v), 0, false};
    default: return Scalar::of_int(static_cast<int64_t>(v));
    }
}

// "c[3,17]" for cell `cell` of parameter `layout` (with the field's cell
// within a record element).
std::string element_name(const interpret::ParameterLayout& layout, int64_t cell) {
    auto per_element = static_cast<int64_t>(std::max<size_t>(layout.element_cells.size(), 1));
    int64_t element = cell / per_element;
    if (!layout.is_array) return layout.name;
    std::vector<int64_t> index(layout.extents.size());
    for (size_t k = layout.extents.size(); k-- > 0;) {
        index[k] = layout.extents[k] ? element % layout.extents[k] : 0;
        element = layout.extents[k] ? element / layout.extents[k] : 0;
    }
    std::string out = fmt::format("{}[{}]", layout.name, fmt::join(index, ","));
    if (per_element > 1) out += fmt::format(" (cell {} of the record)", cell % per_element);
    return out;
}

}  // namespace

bool cells_close(const Scalar& got, const Scalar& want, const Tolerance& t) {
    if (got.poison || want.poison) return got.poison == want.poison;
    if (!got.is_floating() && !want.is_floating()) return got.i == want.i;
    double g = got.as_double(), w = want.as_double();
    if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w);
    if (std::isinf(g) || std::isinf(w)) return g == w;
    return std::fabs(g - w) <= t.absolute + t.relative * std::fabs(w);
}

Scalar random_cell(Primitive p, std::mt19937_64& rng, int64_t int_bound) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    double v = p == Primitive::Float || p == Primitive::Double ? unit(rng)
               : p == Primitive::Int ? static_cast<double>(rng() % static_cast<uint64_t>(int_bound))
               : static_cast<double>(rng() % (p == Primitive::Bool ? 2 : 256));
    return cell_value(p, v);
}

namespace {

// The memory of this machine, in bytes (0 where it cannot be told).
uint64_t physical_memory_bytes() {
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size) : 0;
}

// An error when the cells of these parameters cannot all be held: a run
// keeps at least the inputs and one engine's results, each cell an
// interpreter Scalar, so a size past what the machine holds is refused here,
// with the numbers, rather than failing in an allocation.
std::optional<interpret::InterpretError> too_large_to_hold(const mcpl::Function& kernel, const Sizes& sizes,
                                                           const std::vector<interpret::ParameterLayout>& layouts) {
    constexpr uint64_t kCopies = 2;  // the inputs and one run's results
    uint64_t cells = 0;
    bool overflow = false;
    for (const auto& layout : layouts) {
        uint64_t count = layout.element_cells.size();
        for (int64_t extent : layout.extents)
            overflow |= __builtin_mul_overflow(count, static_cast<uint64_t>(extent), &count);
        overflow |= __builtin_add_overflow(cells, count, &cells);
    }
    uint64_t bytes = 0;
    overflow |= __builtin_mul_overflow(cells, uint64_t{sizeof(Scalar)} * kCopies, &bytes);
    uint64_t memory = physical_memory_bytes();
    if (!overflow && (memory == 0 || bytes <= memory)) return std::nullopt;
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    std::string what = fmt::format("the parameters of '{}' at {} hold", kernel.name, describe_sizes(sizes));
    if (overflow)
        return interpret::InterpretError{kernel.location, what + " more values than a 64-bit machine can address"};
    return interpret::InterpretError{
        kernel.location,
        fmt::format("{} {} values: {:.1f} GiB as the interpreter keeps them (the inputs and one run's results), more "
                    "than this machine's {:.1f} GiB of memory; run it at smaller sizes",
                    what, cells, static_cast<double>(bytes) / kGiB, static_cast<double>(memory) / kGiB)};
}

}  // namespace

KernelData KernelData::clone() const {
    KernelData copy;
    copy.layouts = layouts;
    for (const auto& s : storages) copy.storages.push_back(std::make_shared<interpret::Storage>(*s));
    return copy;
}

std::optional<interpret::InterpretError> make_kernel_data(const mcpl::Function& kernel, const Sizes& sizes,
                                                          const std::map<std::string, double>& values,
                                                          uint64_t seed, KernelData& data) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<Scalar> scalars;
    int64_t smallest_size = 0;
    for (const auto& p : kernel.params) {
        const mcpl::Type& t = p->forms.front().resolved_type;
        if (t.is_array() || t.record) continue;
        Primitive prim = t.primitive.value_or(Primitive::Int);
        const std::string& name = p->forms.front().name;
        if (auto v = values.find(name); v != values.end()) {
            scalars.push_back(cell_value(prim, v->second));
        } else if (prim == Primitive::Int) {
            auto size = std::find_if(sizes.begin(), sizes.end(), [&](const auto& s) { return s.first == name; });
            if (size == sizes.end())
                return interpret::InterpretError{p->location, fmt::format("no size for parameter '{}'", name)};
            scalars.push_back(Scalar::of_int(size->second));
            if (size->second > 0 && (smallest_size == 0 || size->second < smallest_size)) smallest_size = size->second;
        } else if (prim == Primitive::Float || prim == Primitive::Double) {
            scalars.push_back(cell_value(prim, unit(rng)));
        } else {
            scalars.push_back(cell_value(prim, static_cast<double>(rng() % (prim == Primitive::Bool ? 2 : 256))));
        }
    }
    if (auto error = interpret::parameter_layouts(kernel, scalars, data.layouts)) return error;
    if (auto error = too_large_to_hold(kernel, sizes, data.layouts)) return error;
    int64_t int_bound = smallest_size > 0 ? smallest_size : 16;
    data.storages.clear();
    size_t next_scalar = 0;
    for (const auto& layout : data.layouts) {
        auto storage = std::make_shared<interpret::Storage>();
        const mcpl::Type& t = layout.decl->forms.front().resolved_type;
        if (!layout.is_array && !t.record) {
            storage->cells.push_back(scalars[next_scalar++]);
        } else {
            for (int64_t e = 0; e < layout.elements(); ++e)
                for (Primitive p : layout.element_cells) storage->cells.push_back(random_cell(p, rng, int_bound));
        }
        data.storages.push_back(storage);
    }
    return std::nullopt;
}

std::string describe_sizes(const Sizes& sizes) {
    std::vector<std::string> parts;
    for (const auto& [name, value] : sizes) parts.push_back(fmt::format("{}={}", name, value));
    return fmt::format("{}", fmt::join(parts, " "));
}

std::optional<Mismatch> compare_outputs(const KernelData& got, const KernelData& want, const Tolerance& tolerance) {
    for (size_t k = 0; k < want.layouts.size(); ++k) {
        if (!want.layouts[k].decl->is_written) continue;
        const auto& g = got.storages[k]->cells;
        const auto& w = want.storages[k]->cells;
        if (g.size() != w.size())
            return Mismatch{want.layouts[k].name, fmt::format("{} cells", g.size()), fmt::format("{} cells", w.size())};
        for (size_t c = 0; c < w.size(); ++c)
            if (!cells_close(g[c], w[c], tolerance))
                return Mismatch{element_name(want.layouts[k], static_cast<int64_t>(c)), g[c].str(), w[c].str()};
    }
    return std::nullopt;
}

std::optional<std::string> first_poisoned_output(const KernelData& data) {
    for (size_t k = 0; k < data.layouts.size(); ++k) {
        if (!data.layouts[k].decl->is_written) continue;
        const auto& cells = data.storages[k]->cells;
        for (size_t c = 0; c < cells.size(); ++c)
            if (cells[c].poison) return element_name(data.layouts[k], static_cast<int64_t>(c));
    }
    return std::nullopt;
}

std::string output_checksums(const KernelData& data) {
    std::string out;
    for (size_t k = 0; k < data.layouts.size(); ++k) {
        if (!data.layouts[k].decl->is_written) continue;
        double sum = 0;
        for (const Scalar& c : data.storages[k]->cells) sum += c.as_double();
        out += fmt::format("{}: {} element{}, sum {:.9g}\n", data.layouts[k].name, data.layouts[k].elements(),
                           data.layouts[k].elements() == 1 ? "" : "s", sum);
    }
    return out;
}

void write_cells(std::ostream& out, const KernelData& data) {
    for (const auto& storage : data.storages) {
        auto count = static_cast<int64_t>(storage->cells.size());
        out.write(reinterpret_cast<const char*>(&count), sizeof count);
        for (const Scalar& c : storage->cells) {
            if (c.is_floating()) out.write(reinterpret_cast<const char*>(&c.f), sizeof c.f);
            else out.write(reinterpret_cast<const char*>(&c.i), sizeof c.i);
        }
    }
}

bool read_cells(std::istream& in, KernelData& data) {
    for (const auto& storage : data.storages) {
        int64_t count = 0;
        if (!in.read(reinterpret_cast<char*>(&count), sizeof count) ||
            count != static_cast<int64_t>(storage->cells.size()))
            return false;
        for (Scalar& c : storage->cells) {
            c.poison = false;
            if (c.is_floating()) in.read(reinterpret_cast<char*>(&c.f), sizeof c.f);
            else in.read(reinterpret_cast<char*>(&c.i), sizeof c.i);
        }
    }
    return static_cast<bool>(in);
}

}  // namespace mcl::driver
