#pragma once
// A k-linearisation from outside Cineflow (oct_params.hpp, KLinearisation::Table and
// ::Polynomial): a spectrometer's resampling table as OCT users keep it in a text file, or the
// coefficients of its polynomial as an operator types them.

#include <filesystem>
#include <string>
#include <vector>

namespace cineflow::oct {

// Reads a resampling table: the raw sample index (0-based, fractional) to read for each output
// sample, `samples` numbers separated by white space, commas or semicolons; '#' starts a
// comment that runs to the end of the line. Files above 4 MiB are refused unread. Throws
// std::invalid_argument naming the file, and the line of the first word that is not a finite
// number, or the count found and the count expected. Range and monotonicity are checked where
// the table is used (OctParams::validate).
std::vector<float> readKTable(const std::filesystem::path& path, int samples);

// Parses polynomial coefficients c0, c1, c2, c3 (raw index = c0 + c1 j + c2 j^2 + c3 j^3), one to
// four finite numbers separated by commas, semicolons or white space. Throws
// std::invalid_argument naming the first word that is not a number, or the count.
std::vector<double> parseKPolynomial(const std::string& text);

}  // namespace cineflow::oct
