# CINEFLOW_WITH_CUDA: AUTO enables the CUDA backend when nvcc is found, ON requires it, OFF skips it.
include(CheckLanguage)
set(CINEFLOW_CUDA_ENABLED OFF)

# CINEFLOW_CUDA_ARCHITECTURES: the GPUs the CUDA code is compiled for, in CMAKE_CUDA_ARCHITECTURES'
# syntax. The default runs on every GPU that CUDA 13 supports: native code for Turing (75: RTX 20,
# T4), Ampere (80: A100, A30; 86: RTX 30, A10, A40), Ada (89: RTX 40, L4, L40) and Hopper (90:
# H100, H200), plus the PTX of compute_90, which the driver compiles on first use for newer GPUs
# (Blackwell: B200, RTX 50). Each architecture adds to the CUDA compile time; `native` builds only
# for the GPUs of the build machine (it needs one), a list such as "86-real;90" builds what it
# names. -DCMAKE_CUDA_ARCHITECTURES=... overrides this variable.
set(CINEFLOW_CUDA_ARCHITECTURES "75-real;80-real;86-real;89-real;90" CACHE STRING
    "CUDA architectures: a CMAKE_CUDA_ARCHITECTURES list (default: 75 to 90 native, PTX of 90) or native")

if(NOT CINEFLOW_WITH_CUDA STREQUAL "OFF")
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES ${CINEFLOW_CUDA_ARCHITECTURES})
    endif()
    enable_language(CUDA)
    # CMake 3.25 does not know nvcc's C++20 flag (nvcc 12+ has it): teach it, then ask for 20.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(CINEFLOW_CUDA_ENABLED ON)
    message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES}")
  elseif(CINEFLOW_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "CINEFLOW_WITH_CUDA=ON but no CUDA compiler (nvcc) was found. "
                        "Install the CUDA toolkit or configure with -DCINEFLOW_WITH_CUDA=OFF.")
  else()
    message(STATUS "nvcc not found: building the CPU backend only")
  endif()
endif()
