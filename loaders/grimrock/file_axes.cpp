#include "grimrock/grimrock.h"

#include "model/axes.h"

namespace horde::grimrock {

Conversion toFileAxes(const Axes& source) {
    const Axes file = fileAxes();
    Conversion c;
    c.axes = glm::dmat3(glm::inverse(glm::mat3(axesToWorld(file))) * glm::mat3(axesToWorld(source)));
    c.units = double(source.metresPerUnit) / double(file.metresPerUnit);
    c.flipWinding = frontFaceClockwise(source) != frontFaceClockwise(file);
    return c;
}

Conversion fromFileAxes(const Axes& target) {
    Conversion c = toFileAxes(target);
    c.axes = glm::transpose(c.axes); // a signed permutation's inverse
    c.units = 1.0 / c.units;
    return c;
}

glm::dmat4 Conversion::transform(const glm::dmat4& m) const {
    // A uniform scale commutes with the linear part: only the translation changes units.
    glm::dmat4 c(axes);
    glm::dmat4 out = c * m * glm::transpose(c);
    out[3] = glm::dvec4(glm::dvec3(out[3]) * units, out[3].w);
    return out;
}

TrsD Conversion::trs(const TrsD& source) const {
    TrsD out;
    out.translation = axes * source.translation * units;
    // Conjugating by a signed permutation keeps a rotation proper and permutes the scale axes.
    out.rotation = glm::normalize(glm::quat_cast(axes * glm::mat3_cast(source.rotation) * glm::transpose(axes)));
    glm::dmat3 magnitude = axes;
    for (int col = 0; col < 3; ++col)
        for (int row = 0; row < 3; ++row) magnitude[col][row] = std::abs(axes[col][row]);
    out.scale = magnitude * source.scale;
    return out;
}

} // namespace horde::grimrock
