;; The local index's inner loop in WebAssembly SIMD (compiled to scan.wasm by
;; `npm run wasm`; a test checks the two agree).
;;
;; accumulate(cols, n, stride, weights, acc, rows):
;;   acc[r] = Σ_{c < n} weights[c] · cols[c · stride + r]   for r < rows
;; cols: n int8 columns `stride` bytes apart; weights: n f32; acc: rows f32 (written).
;; rows and stride are multiples of 4, and each column has at least `rows` bytes.
;; Four rows per step in f32x4 lanes, four columns per pass over acc. Each step widens four
;; int8 codes to f32 in place (a helper function for it was not inlined and cost 5x).
(module
  (memory (export "memory") 1)

  (func (export "accumulate")
    (param $cols i32) (param $n i32) (param $stride i32)
    (param $weights i32) (param $acc i32) (param $rows i32)
    (local $c i32) (local $r i32) (local $at i32)
    (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local $w0 v128) (local $w1 v128) (local $w2 v128) (local $w3 v128)

    ;; acc = 0
    (local.set $r (i32.const 0))
    (block $zeroed
      (loop $zero
        (br_if $zeroed (i32.ge_u (local.get $r) (local.get $rows)))
        (v128.store
          (i32.add (local.get $acc) (i32.shl (local.get $r) (i32.const 2)))
          (v128.const i32x4 0 0 0 0))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $zero)))

    ;; four columns per pass
    (local.set $c (i32.const 0))
    (block $fours
      (loop $four
        (br_if $fours (i32.gt_u (i32.add (local.get $c) (i32.const 4)) (local.get $n)))
        (local.set $p0 (i32.add (local.get $cols) (i32.mul (local.get $c) (local.get $stride))))
        (local.set $p1 (i32.add (local.get $p0) (local.get $stride)))
        (local.set $p2 (i32.add (local.get $p1) (local.get $stride)))
        (local.set $p3 (i32.add (local.get $p2) (local.get $stride)))
        (local.set $at (i32.add (local.get $weights) (i32.shl (local.get $c) (i32.const 2))))
        (local.set $w0 (v128.load32_splat (local.get $at)))
        (local.set $w1 (v128.load32_splat offset=4 (local.get $at)))
        (local.set $w2 (v128.load32_splat offset=8 (local.get $at)))
        (local.set $w3 (v128.load32_splat offset=12 (local.get $at)))
        (local.set $r (i32.const 0))
        (block $done
          (loop $row
            (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
            (local.set $at (i32.add (local.get $acc) (i32.shl (local.get $r) (i32.const 2))))
            (v128.store
              (local.get $at)
              (f32x4.add
                (v128.load (local.get $at))
                (f32x4.add
                  (f32x4.add
                    (f32x4.mul (local.get $w0) (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (i16x8.extend_low_i8x16_s (v128.load32_zero (i32.add (local.get $p0) (local.get $r)))))))
                    (f32x4.mul (local.get $w1) (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (i16x8.extend_low_i8x16_s (v128.load32_zero (i32.add (local.get $p1) (local.get $r))))))))
                  (f32x4.add
                    (f32x4.mul (local.get $w2) (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (i16x8.extend_low_i8x16_s (v128.load32_zero (i32.add (local.get $p2) (local.get $r)))))))
                    (f32x4.mul (local.get $w3) (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (i16x8.extend_low_i8x16_s (v128.load32_zero (i32.add (local.get $p3) (local.get $r)))))))))))
            (local.set $r (i32.add (local.get $r) (i32.const 4)))
            (br $row)))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $four)))

    ;; the rest, one column per pass
    (block $ones
      (loop $one
        (br_if $ones (i32.ge_u (local.get $c) (local.get $n)))
        (local.set $p0 (i32.add (local.get $cols) (i32.mul (local.get $c) (local.get $stride))))
        (local.set $w0
          (v128.load32_splat (i32.add (local.get $weights) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $r (i32.const 0))
        (block $done
          (loop $row
            (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
            (local.set $at (i32.add (local.get $acc) (i32.shl (local.get $r) (i32.const 2))))
            (v128.store
              (local.get $at)
              (f32x4.add
                (v128.load (local.get $at))
                (f32x4.mul (local.get $w0) (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (i16x8.extend_low_i8x16_s (v128.load32_zero (i32.add (local.get $p0) (local.get $r)))))))))
            (local.set $r (i32.add (local.get $r) (i32.const 4)))
            (br $row)))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $one)))))
