package report

import (
	"bytes"
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Chart sizes: the picture is 800×560 pixels, shown 600 pixels wide.
const (
	chartWidth  = 600 // points
	chartHeight = 420 // points
	chartDPI    = 96
	// ChartWidthPx and ChartHeightPx are the PNG's size in pixels.
	ChartWidthPx  = chartWidth * chartDPI / 72
	ChartHeightPx = chartHeight * chartDPI / 72
)

// Series are a week's figures of each day for the chart.
type Series struct {
	Week Week
	// Spend holds each currency's spend of each day, Monday first.
	Spend map[string]*[7]float64
	// Engagement holds each day's engagement, Monday first.
	Engagement [7]float64
}

// ChartPNG draws the week's spend (a line a currency) above its engagement
// (bars), each day of the week on the horizontal axis, as a PNG.
func ChartPNG(s Series) ([]byte, error) {
	spend, err := spendPlot(s)
	if err != nil {
		return nil, err
	}
	engagement, err := engagementPlot(s)
	if err != nil {
		return nil, err
	}
	img := vgimg.NewWith(vgimg.UseWH(chartWidth, chartHeight), vgimg.UseDPI(chartDPI),
		vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: 6, PadBottom: 6, PadLeft: 6, PadRight: 12, PadY: 12}
	canvases := plot.Align([][]*plot.Plot{{spend}, {engagement}}, tiles, dc)
	spend.Draw(canvases[0][0])
	engagement.Draw(canvases[1][0])
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// dayTicks label the days 0 to 6 with their weekday and date.
func dayTicks(w Week) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, 7)
	for i := range ticks {
		ticks[i] = plot.Tick{Value: float64(i), Label: w.Day(i).Format("Mon 2 Jan")}
	}
	return ticks
}

func spendPlot(s Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Spend per day, week " + s.Week.String()
	p.X.Tick.Marker = dayTicks(s.Week)
	p.X.Min, p.X.Max = -0.5, 6.5
	p.Y.Min = 0
	p.Y.Label.Text = "Spend"
	p.Add(plotter.NewGrid())
	currencies := make([]string, 0, len(s.Spend))
	for c := range s.Spend {
		currencies = append(currencies, c)
	}
	slices.Sort(currencies)
	if len(currencies) == 1 {
		p.Y.Label.Text = "Spend (" + currencies[0] + ")"
	}
	for i, c := range currencies {
		xys := make(plotter.XYs, 7)
		for d, v := range s.Spend[c] {
			xys[d] = plotter.XY{X: float64(d), Y: v}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		line.Color = plotutil.Color(i)
		line.Width = vg.Points(2)
		points.Color = plotutil.Color(i)
		points.Shape = draw.CircleGlyph{}
		p.Add(line, points)
		if len(currencies) > 1 {
			p.Legend.Add(c, line, points)
		}
	}
	p.Legend.Top = true
	p.Legend.XOffs = -vg.Points(8)
	p.Y.Max = 1
	for _, days := range s.Spend {
		p.Y.Max = max(p.Y.Max, slices.Max(days[:])*1.15)
	}
	return p, nil
}

func engagementPlot(s Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Engagement per day"
	p.X.Tick.Marker = dayTicks(s.Week)
	p.X.Min, p.X.Max = -0.5, 6.5
	p.Y.Min = 0
	p.Y.Label.Text = "Engagements"
	p.Add(plotter.NewGrid())
	bars, err := plotter.NewBarChart(plotter.Values(s.Engagement[:]), vg.Points(30))
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	bars.Color = color.RGBA{R: 0x2b, G: 0x8a, B: 0x3e, A: 0xff}
	bars.LineStyle.Width = 0
	p.Add(bars)
	p.X.Label.Text = "Day (the ad account's time zone)"
	p.Y.Max = max(1, slices.Max(s.Engagement[:])*1.15)
	return p, nil
}
