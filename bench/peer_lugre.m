% bench/peer_lugre.m: peer for examples/lugre_stickslip.jnt with Octave ode15s.
%
% The LuGre stick-slip system of seed 001, E3 (digest Sect. 2.7; Canudas de
% Wit et al. 1995): x' = v, v' = (K (R t - x) - F_L) / M,
%   z' = v - |v| z / G(v),  G(v) = (F_C + (F_S - F_C) exp(-(v/V_S)^2)) / sigma0,
%   F_L = sigma0 z + sigma1 z' + sigma2 v,
% from rest over 0..t_end with the analytic Jacobian and the output grid
% 0:dt_out:t_end (as the jnt model's CSV). Only the ode15s call is timed
% (tic/toc), repeated `repeat` times.
%
%   octave-cli --no-gui -q bench/peer_lugre.m [rtol atol repeat]
% prints one line:
%   peer=octave case=lugre rtol=.. atol=.. method=ode15s jac=analytic
%   time_s_min=.. time_s_med=.. rows=.. x_end=.. FL_max=..
1;

function p = lugre_params()
  p.M = 1; p.K = 2; p.R = 0.1;
  p.s0 = 1e5; p.s1 = sqrt(1e5); p.s2 = 0.4;
  p.FC = 1; p.FS = 1.5; p.VS = 1e-3;
end

function dy = lugre_rhs(t, y, p)
  x = y(1); v = y(2); z = y(3);
  G = (p.FC + (p.FS - p.FC) * exp(-(v / p.VS)^2)) / p.s0;
  zd = v - abs(v) * z / G;
  FL = p.s0 * z + p.s1 * zd + p.s2 * v;
  dy = [v; (p.K * (p.R * t - x) - FL) / p.M; zd];
end

function J = lugre_jac(t, y, p)
  v = y(2); z = y(3);
  e = exp(-(v / p.VS)^2);
  G = (p.FC + (p.FS - p.FC) * e) / p.s0;
  dG = (p.FS - p.FC) * e * (-2 * v / p.VS^2) / p.s0;
  hv = sign(v) * z / G - abs(v) * z * dG / G^2;
  hz = abs(v) / G;
  zd_v = 1 - hv; zd_z = -hz;
  F_v = p.s1 * zd_v + p.s2; F_z = p.s0 + p.s1 * zd_z;
  J = [0, 1, 0; -p.K / p.M, -F_v / p.M, -F_z / p.M; 0, zd_v, zd_z];
end

args = argv();
rtol = 1e-10; atol = 1e-12; repeat = 3; t_end = 20; dt_out = 1e-3;
if numel(args) >= 1, rtol = str2double(args{1}); end
if numel(args) >= 2, atol = str2double(args{2}); end
if numel(args) >= 3, repeat = str2double(args{3}); end
p = lugre_params();
tspan = min((0:round(t_end / dt_out)) * dt_out, t_end);
opts = odeset('RelTol', rtol, 'AbsTol', atol, 'Jacobian', @(t, y) lugre_jac(t, y, p));
times = zeros(1, repeat);
for k = 1:repeat
  tic;
  [t, y] = ode15s(@(t, y) lugre_rhs(t, y, p), tspan, [0; 0; 0], opts);
  times(k) = toc;
end
FL = zeros(size(t));
for i = 1:numel(t)
  dy = lugre_rhs(t(i), y(i, :).', p);
  FL(i) = p.s0 * y(i, 3) + p.s1 * dy(3) + p.s2 * y(i, 2);
end
printf('peer=octave case=lugre rtol=%g atol=%g method=ode15s jac=analytic time_s_min=%.6g time_s_med=%.6g rows=%d x_end=%.12g FL_max=%.12g\n', ...
       rtol, atol, min(times), median(times), numel(t), y(end, 1), max(FL));
